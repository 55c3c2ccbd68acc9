package org.dpclust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reference to a Markdown file in the repository resolves: links in Markdown files (to any
 * file, relative to the linking file), bare mentions of a Markdown file in Markdown text, and
 * mentions in the comments of source, build and configuration files (javadoc and comments name
 * paths from the repository root, e.g. {@code docs/privacy.md#budget}). A reference fails if the
 * file does not exist inside the repository, or if its {@code #anchor} matches no heading of that
 * file (anchors as GitHub renders them: lower case, punctuation dropped, spaces as hyphens, -1, -2
 * … for repeats).
 */
class DocsLinksTest {

    /** A Markdown link or image: [text](target) or [text](target "title"). */
    private static final Pattern MD_LINK =
            Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    /** A mention of a Markdown file, with an optional anchor. */
    private static final Pattern MD_MENTION =
            Pattern.compile("(?<![\\w./-])([\\w./-]*\\w\\.md)(#[\\w-]+)?(?![\\w])");

    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");

    private static final Set<String> SOURCE_EXTENSIONS =
            Set.of("java", "xml", "yaml", "yml", "properties", "avsc", "sh", "txt", "conf");

    private static final String MD = ".md";

    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "node_modules");

    @Test
    void everyReferenceToAMarkdownFileResolves() {
        Path root = repositoryRoot();
        List<String> problems = check(root);
        assertTrue(problems.isEmpty(), "broken references:\n" + String.join("\n", problems));
    }

    @Test
    void reportsAMissingFileAMissingAnchorAndAPathOutsideTheRepository(@TempDir Path dir)
            throws IOException {
        // ".md" is concatenated so that this file does not mention the fixture's files itself
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("docs/a" + MD), "# Title\n\n## Budget and ledger\n");
        Files.writeString(
                dir.resolve("README" + MD),
                "[ok](docs/a"
                        + MD
                        + "#budget-and-ledger) [gone](docs/b"
                        + MD
                        + ")"
                        + " [bad](docs/a"
                        + MD
                        + "#budget)\n"
                        + "[out](../elsewhere"
                        + MD
                        + ") see NOTES"
                        + MD
                        + "\n");
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("src/A.java"),
                "/** See docs/a"
                        + MD
                        + "#title and docs/a"
                        + MD
                        + "#nothing and docs/c"
                        + MD
                        + ". */\nclass A {}\n");
        List<String> problems = check(dir);
        assertEquals(6, problems.size(), String.join("\n", problems));
        for (String expected :
                List.of(
                        "docs/b" + MD + " ",
                        "docs/a" + MD + "#budget ",
                        "../elsewhere" + MD,
                        "NOTES" + MD,
                        "docs/a" + MD + "#nothing",
                        "docs/c" + MD)) {
            assertTrue(
                    problems.stream().anyMatch(p -> p.contains(expected)),
                    expected + " not reported in\n" + String.join("\n", problems));
        }
    }

    @Test
    void onlyCommentsOfSourceFilesAreReferences() {
        String java =
                "/** a"
                        + MD
                        + " */ class A { String s = \"b"
                        + MD
                        + " // no\"; char c = '\\''; }"
                        + " // c"
                        + MD
                        + "\n/* d"
                        + MD
                        + " */ String t = \"\"\"\ne"
                        + MD
                        + "\"\"\";";
        List<String> found = new ArrayList<>();
        Matcher m = MD_MENTION.matcher(comments("java", java));
        while (m.find()) {
            found.add(m.group(1));
        }
        assertEquals(List.of("a" + MD, "c" + MD, "d" + MD), found);
        assertEquals("# x" + MD + "\n", comments("yaml", "name: y" + MD + " # x" + MD + "\n"));
    }

    @Test
    void anchorsAreTheOnesGithubRenders() {
        assertEquals(
                List.of("privacy-unit", "lloyd-and-k-means", "2-hst", "notes", "notes-1"),
                anchors(
                        "# Privacy unit\n```\n# not a heading\n```\n## Lloyd and k-means++\n"
                                + "### 2-HST\n## Notes\n## Notes\n"));
    }

    private static Path repositoryRoot() {
        String basedir = System.getProperty("basedir");
        Path root = basedir != null ? Path.of(basedir) : Path.of("");
        return root.toAbsolutePath().normalize();
    }

    static List<String> check(Path root) {
        Map<Path, List<String>> anchorCache = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Path file : files(root)) {
            String name = file.getFileName().toString();
            String text = read(file);
            if (name.endsWith(".md")) {
                checkMarkdown(root, file, text, anchorCache, problems);
            } else if (SOURCE_EXTENSIONS.contains(extension(name))) {
                Matcher m = MD_MENTION.matcher(comments(extension(name), text));
                while (m.find()) {
                    check(root, file, m.group(1), m.group(2), true, anchorCache, problems);
                }
            }
        }
        return problems;
    }

    private static void checkMarkdown(
            Path root,
            Path file,
            String text,
            Map<Path, List<String>> anchorCache,
            List<String> problems) {
        Matcher link = MD_LINK.matcher(text);
        StringBuilder rest = new StringBuilder();
        int last = 0;
        while (link.find()) {
            rest.append(text, last, link.start()).append(' ');
            last = link.end();
            String target = link.group(1);
            if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                continue; // http:, https:, mailto:
            }
            int hash = target.indexOf('#');
            String path = hash < 0 ? target : target.substring(0, hash);
            String anchor = hash < 0 ? null : target.substring(hash);
            if (path.isEmpty()) {
                checkAnchor(file, anchor, target, file, anchorCache, problems, root);
                continue;
            }
            Path resolved = file.getParent().resolve(path).normalize();
            if (!resolved.startsWith(root) || !Files.exists(resolved)) {
                problems.add(location(root, file) + ": link to " + target + " : no such file");
            } else if (anchor != null && path.endsWith(".md")) {
                checkAnchor(resolved, anchor, target, file, anchorCache, problems, root);
            }
        }
        rest.append(text.substring(last));
        Matcher m = MD_MENTION.matcher(rest);
        while (m.find()) {
            check(root, file, m.group(1), m.group(2), false, anchorCache, problems);
        }
    }

    /** A bare mention resolves from the mentioning file's directory or from the repository root. */
    private static void check(
            Path root,
            Path file,
            String path,
            String anchor,
            boolean fromRootFirst,
            Map<Path, List<String>> anchorCache,
            List<String> problems) {
        String target = path + (anchor == null ? "" : anchor);
        Path fromRoot = root.resolve(path).normalize();
        Path fromFile = file.getParent().resolve(path).normalize();
        Path resolved = null;
        for (Path candidate :
                fromRootFirst ? List.of(fromRoot, fromFile) : List.of(fromFile, fromRoot)) {
            if (candidate.startsWith(root) && Files.isRegularFile(candidate)) {
                resolved = candidate;
                break;
            }
        }
        if (resolved == null) {
            problems.add(location(root, file) + ": reference to " + target + " : no such file");
        } else if (anchor != null) {
            checkAnchor(resolved, anchor, target, file, anchorCache, problems, root);
        }
    }

    private static void checkAnchor(
            Path mdFile,
            String anchor,
            String target,
            Path referrer,
            Map<Path, List<String>> anchorCache,
            List<String> problems,
            Path root) {
        if (anchor == null) {
            return;
        }
        List<String> known = anchorCache.computeIfAbsent(mdFile, f -> anchors(read(f)));
        if (!known.contains(anchor.substring(1))) {
            problems.add(
                    location(root, referrer)
                            + ": reference to "
                            + target
                            + " : no heading with that anchor in "
                            + root.relativize(mdFile));
        }
    }

    /**
     * The comment text of a source file, so that file names a program writes (string literals) are
     * not taken for references: Java comments (line and block, string and text-block literals
     * skipped), XML comments, and what follows {@code #} in YAML, properties and shell files. Other
     * files are taken whole. Removed code is replaced by spaces, so mentions cannot run together.
     */
    static String comments(String extension, String text) {
        switch (extension) {
            case "java":
                return javaComments(text);
            case "xml":
                return matches(Pattern.compile("(?s)<!--.*?-->"), text);
            case "yaml", "yml", "properties", "sh", "conf":
                return matches(Pattern.compile("(?m)#.*$"), text);
            default:
                return text;
        }
    }

    private static String matches(Pattern p, String text) {
        StringBuilder out = new StringBuilder();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.append(m.group()).append('\n');
        }
        return out.toString();
    }

    private static String javaComments(String s) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = s.length();
        while (i < n) {
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(s, i, end).append('\n');
                i = end;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                out.append(s, i, end).append('\n');
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append(' ');
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char quote = s.charAt(i++);
                while (i < n && s.charAt(i) != quote && s.charAt(i) != '\n') {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(' ');
            } else {
                i++;
            }
        }
        return out.toString();
    }

    /** The anchors GitHub generates for the headings of a Markdown text (outside code fences). */
    static List<String> anchors(String markdown) {
        List<String> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) {
                continue;
            }
            String slug =
                    h.group(2)
                            .replaceAll("`", "")
                            .toLowerCase(Locale.ROOT)
                            .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
                            .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            out.add(n == 0 ? slug : slug + "-" + n);
        }
        return out;
    }

    private static List<Path> files(Path root) {
        Set<Path> out = new LinkedHashSet<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile)
                    .filter(p -> !skipped(root, p))
                    .sorted()
                    .forEach(out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ArrayList<>(out);
    }

    private static boolean skipped(Path root, Path p) {
        for (Path part : root.relativize(p.getParent() == null ? p : p.getParent())) {
            String s = part.toString();
            if (SKIPPED_DIRECTORIES.contains(s) || (s.startsWith(".") && !s.equals(".ci"))) {
                return true;
            }
        }
        return false;
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String location(Path root, Path file) {
        return root.relativize(file).toString();
    }
}
