package org.dpclust.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A syntax check of a Dockerfile, following the Dockerfile reference: comment and parser-directive
 * lines, line continuations with {@code \}, every instruction one of Docker's, the first
 * instruction other than {@code ARG} a {@code FROM}, {@code COPY}/{@code ADD} flags that exist for
 * them and at least a source and a destination, JSON (exec) forms that are JSON string arrays,
 * {@code EXPOSE} ports in range. Throws {@link IllegalArgumentException} naming the line.
 */
record Dockerfile(List<Instruction> instructions) {
    /** One instruction: its keyword (upper case), its arguments as written, its first line. */
    record Instruction(String keyword, String arguments, int line) {}

    private static final Set<String> KEYWORDS =
            Set.of(
                    "FROM",
                    "RUN",
                    "CMD",
                    "LABEL",
                    "MAINTAINER",
                    "EXPOSE",
                    "ENV",
                    "ADD",
                    "COPY",
                    "ENTRYPOINT",
                    "VOLUME",
                    "USER",
                    "WORKDIR",
                    "ARG",
                    "ONBUILD",
                    "STOPSIGNAL",
                    "HEALTHCHECK",
                    "SHELL");
    private static final Set<String> COPY_FLAGS =
            Set.of("--from", "--chown", "--chmod", "--link", "--parents", "--exclude");
    private static final Set<String> ADD_FLAGS =
            Set.of("--chown", "--chmod", "--link", "--checksum", "--keep-git-dir", "--exclude");
    private static final Set<String> EXEC_FORM = Set.of("RUN", "CMD", "ENTRYPOINT", "SHELL");

    static Dockerfile parse(Path p) {
        try {
            return parse(Files.readString(p));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Dockerfile parse(String text) {
        List<Instruction> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        StringBuilder pending = null;
        int start = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripTrailing();
            if (pending == null && (line.isBlank() || line.stripLeading().startsWith("#"))) {
                continue;
            }
            if (pending != null && (line.isBlank() || line.stripLeading().startsWith("#"))) {
                continue; // blank and comment lines inside a continued instruction are removed
            }
            if (pending == null) {
                pending = new StringBuilder();
                start = i + 1;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            out.add(instruction(pending.toString().strip(), start));
            pending = null;
        }
        if (pending != null) {
            throw new IllegalArgumentException(
                    "line " + start + ": the last instruction ends in a line continuation");
        }
        Dockerfile d = new Dockerfile(out);
        d.check();
        return d;
    }

    private static Instruction instruction(String text, int line) {
        String[] kw = text.split("\\s+", 2);
        String keyword = kw[0].toUpperCase(Locale.ROOT);
        if (!KEYWORDS.contains(keyword)) {
            throw new IllegalArgumentException("line " + line + ": unknown instruction " + kw[0]);
        }
        if (kw.length < 2 || kw[1].isBlank()) {
            throw new IllegalArgumentException(
                    "line " + line + ": " + keyword + " needs arguments");
        }
        return new Instruction(keyword, kw[1].strip(), line);
    }

    private void check() {
        Instruction first =
                instructions.stream()
                        .filter(i -> !i.keyword().equals("ARG"))
                        .findFirst()
                        .orElse(null);
        if (first == null || !first.keyword().equals("FROM")) {
            throw new IllegalArgumentException("the first instruction (after ARGs) must be FROM");
        }
        for (Instruction i : instructions) {
            switch (i.keyword()) {
                case "COPY" -> sourcesAndDestination(i, COPY_FLAGS);
                case "ADD" -> sourcesAndDestination(i, ADD_FLAGS);
                case "EXPOSE" -> {
                    for (String port : i.arguments().split("\\s+")) {
                        int n = Integer.parseInt(port.replaceFirst("/(tcp|udp)$", ""));
                        if (n < 1 || n > 65535) {
                            throw new IllegalArgumentException(
                                    "line " + i.line() + ": port " + port + " out of range");
                        }
                    }
                }
                default -> {
                    if (EXEC_FORM.contains(i.keyword()) && i.arguments().startsWith("[")) {
                        jsonStrings(i);
                    }
                }
            }
        }
    }

    private static void jsonStrings(Instruction i) {
        try {
            JsonNode n = new ObjectMapper().readTree(i.arguments());
            boolean ok = n.isArray() && n.size() > 0;
            for (JsonNode e : n) {
                ok &= e.isTextual();
            }
            if (!ok) {
                throw new IllegalArgumentException(
                        "line " + i.line() + ": exec form must be a JSON array of strings");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "line " + i.line() + ": exec form is not valid JSON: " + e.getMessage());
        }
    }

    /** The flags, sources and destination of a COPY or ADD; checks flags and arity. */
    private static List<String> sourcesAndDestination(Instruction i, Set<String> flags) {
        List<String> words = new ArrayList<>(List.of(i.arguments().split("\\s+")));
        while (!words.isEmpty() && words.get(0).startsWith("--")) {
            String flag = words.remove(0).split("=", 2)[0];
            if (!flags.contains(flag)) {
                throw new IllegalArgumentException(
                        "line " + i.line() + ": " + i.keyword() + " has no flag " + flag);
            }
        }
        if (words.size() < 2) {
            throw new IllegalArgumentException(
                    "line " + i.line() + ": " + i.keyword() + " needs a source and a destination");
        }
        return words;
    }

    /** The instructions with {@code keyword}. */
    List<Instruction> all(String keyword) {
        return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }

    /** Sources and destination (last) of each COPY, flags removed. */
    List<List<String>> copies() {
        return all("COPY").stream().map(i -> sourcesAndDestination(i, COPY_FLAGS)).toList();
    }

    List<String> exposed() {
        List<String> out = new ArrayList<>();
        all("EXPOSE").forEach(i -> out.addAll(List.of(i.arguments().split("\\s+"))));
        return out;
    }

    /** Where the repository's Dockerfile puts the job jar. */
    static String jobJarDestination() {
        for (List<String> c : parse(DeploymentFiles.DOCKERFILE).copies()) {
            if (c.get(0).equals("target/dpclust-job.jar")) {
                return c.get(c.size() - 1);
            }
        }
        throw new AssertionError("the Dockerfile copies no target/dpclust-job.jar");
    }
}
