package org.dpclust.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lints the Dockerfile with {@code dockerfile-utils} (the validation behind the Dockerfile language
 * server: instructions, flags, arguments, FROM, JSON forms), installed with {@code npm ci} from
 * deploy/lint/ (version pinned by its package-lock.json) into target/ and run with the machine's
 * Node.js. Complements {@link DockerfileTest}, which needs neither.
 */
class DockerfileLintIT {
    private static final Path LINT = Path.of("deploy/lint");
    private static final Path WORK = Path.of("target/dockerfile-lint");

    private static String run(Path dir, String... command) throws Exception {
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), String.join(" ", command) + " timed out");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out;
    }

    @BeforeAll
    static void install() throws Exception {
        Files.createDirectories(WORK);
        for (String f : List.of("package.json", "package-lock.json", "lint-dockerfile.js")) {
            Files.copy(LINT.resolve(f), WORK.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        run(WORK, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
    }

    /** The diagnostics of each file, as "line: message". */
    private static List<List<String>> lint(Path... files) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "lint-dockerfile.js"));
        for (Path f : files) {
            command.add(f.toAbsolutePath().toString());
        }
        List<List<String>> out = new ArrayList<>();
        for (String line : run(WORK, command.toArray(String[]::new)).split("\n")) {
            if (line.startsWith("{")) {
                List<String> d = new ArrayList<>();
                for (JsonNode x : new ObjectMapper().readTree(line).path("diagnostics")) {
                    d.add(x.path("line").asInt() + ": " + x.path("message").asText());
                }
                out.add(d);
            }
        }
        assertEquals(files.length, out.size(), "one result per file");
        return out;
    }

    @Test
    void theDockerfileHasNoDiagnosticsAndABrokenOneHas() throws Exception {
        Path broken = WORK.resolve("broken.Dockerfile");
        Files.writeString(broken, "FORM flink:x\nCOPY --own=a onlyone\nEXPOSE port\n");
        List<List<String>> r = lint(DeploymentFiles.DOCKERFILE, broken);
        assertEquals(List.of(), r.get(0), "Dockerfile");
        String b = String.join("\n", r.get(1));
        for (String expected : List.of("1: Unknown instruction: FORM", "2: Unknown flag: own")) {
            assertTrue(b.contains(expected), expected + " in:\n" + b);
        }
    }
}
