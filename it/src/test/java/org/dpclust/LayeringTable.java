package org.dpclust;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The package table of docs/architecture.md ("## Packages"), read as rules: one {@link Row} per
 * top-level package of {@code org.dpclust} with its build unit, the libraries it may use (Flink,
 * Kafka or neither) and the dpclust packages it may use. {@link #violations} holds the code against
 * each row in both directions, so the table can neither be broken nor drift: a dependency the row
 * does not list fails, and so does a listed arrow or library the code no longer has.
 */
final class LayeringTable {
    /** The build units, from the bottom: a unit's packages may use its own and the ones below. */
    static final List<String> UNITS = List.of("product", "lab", "cli");

    private static final String ROOT = "org.dpclust.";
    private static final Pattern PACKAGE = Pattern.compile("`([a-z]+)`");

    /** One row: {@code | unit | `package` | Flink / Kafka | what it holds | → |}. */
    record Row(String unit, String pkg, Set<String> libraries, Set<String> arrows) {}

    private final Map<String, Row> rows;

    private LayeringTable(Map<String, Row> rows) {
        this.rows = rows;
    }

    Map<String, Row> rows() {
        return rows;
    }

    /** The table under the heading "## Packages" of the given Markdown file. */
    static LayeringTable read(Path markdown) throws IOException {
        return parse(Files.readString(markdown));
    }

    static LayeringTable parse(String markdown) {
        int at = markdown.indexOf("\n## Packages\n");
        if (at < 0) {
            throw new IllegalArgumentException("no '## Packages' section");
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : markdown.substring(at + 1).split("\n")) {
            if (!line.startsWith("|")) {
                if (inTable) {
                    break;
                }
                continue;
            }
            inTable = true;
            String[] cells = line.split("\\|", -1);
            if (cells.length != 7) {
                throw new IllegalArgumentException("a row needs 5 cells: " + line);
            }
            String unit = cells[1].trim();
            if (unit.equals("unit") || unit.startsWith("---")) {
                continue;
            }
            if (!UNITS.contains(unit)) {
                throw new IllegalArgumentException("unknown unit '" + unit + "': " + line);
            }
            Set<String> own = packages(cells[2]);
            if (own.size() != 1) {
                throw new IllegalArgumentException("one package per row: " + line);
            }
            String pkg = own.iterator().next();
            Set<String> libraries = new TreeSet<>();
            for (String lib : cells[3].split(",")) {
                String l = lib.trim();
                if (l.equals("Flink") || l.equals("Kafka")) {
                    libraries.add(l);
                } else if (!l.equals("—")) {
                    throw new IllegalArgumentException("libraries are Flink, Kafka or —: " + line);
                }
            }
            if (rows.put(pkg, new Row(unit, pkg, libraries, packages(cells[5]))) != null) {
                throw new IllegalArgumentException("two rows for " + pkg);
            }
        }
        return new LayeringTable(rows);
    }

    private static Set<String> packages(String cell) {
        Set<String> out = new TreeSet<>();
        Matcher m = PACKAGE.matcher(cell);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** What each top-level package of the given classes uses, and where its classes come from. */
    record Observed(
            Map<String, Set<String>> arrows,
            Map<String, Set<String>> libraries,
            Map<String, Set<String>> units,
            Map<String, List<String>> examples) {}

    static Observed observe(JavaClasses classes) {
        Map<String, Set<String>> arrows = new TreeMap<>();
        Map<String, Set<String>> libraries = new TreeMap<>();
        Map<String, Set<String>> units = new TreeMap<>();
        Map<String, List<String>> examples = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = topLevel(c.getName());
            if (from == null) {
                continue;
            }
            arrows.computeIfAbsent(from, k -> new TreeSet<>());
            libraries.computeIfAbsent(from, k -> new TreeSet<>());
            units.computeIfAbsent(from, k -> new TreeSet<>()).add(unitOf(c));
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getBaseComponentType().getName();
                String to = topLevel(target);
                String key;
                if (to != null && !to.equals(from)) {
                    arrows.get(from).add(to);
                    key = from + "->" + to;
                } else if (target.startsWith("org.apache.flink.")) {
                    libraries.get(from).add("Flink");
                    key = from + "->Flink";
                } else if (target.startsWith("org.apache.kafka.")) {
                    libraries.get(from).add("Kafka");
                    key = from + "->Kafka";
                } else {
                    continue;
                }
                List<String> ex = examples.computeIfAbsent(key, k -> new ArrayList<>());
                if (ex.size() < 3) {
                    ex.add(d.getDescription());
                }
            }
        }
        return new Observed(arrows, libraries, units, examples);
    }

    /** The violations of one row by the observed code; empty when the row holds. */
    List<String> violations(Row row, Observed code) {
        List<String> out = new ArrayList<>();
        String p = row.pkg();
        if (!code.arrows().containsKey(p)) {
            return List.of("the table lists `" + p + "`, which has no main class");
        }
        for (String to : code.arrows().get(p)) {
            if (!row.arrows().contains(to)) {
                out.add(
                        "`"
                                + p
                                + "` uses `"
                                + to
                                + "`, which its row does not list: "
                                + ex(code, p + "->" + to));
            }
        }
        for (String to : row.arrows()) {
            if (!code.arrows().get(p).contains(to)) {
                out.add("`" + p + "`'s row lists `" + to + "`, which no class of it uses (drift)");
            }
        }
        for (String lib : List.of("Flink", "Kafka")) {
            boolean used = code.libraries().get(p).contains(lib);
            if (used && !row.libraries().contains(lib)) {
                out.add(
                        "`"
                                + p
                                + "` uses "
                                + lib
                                + ", which its row does not allow: "
                                + ex(code, p + "->" + lib));
            }
            if (!used && row.libraries().contains(lib)) {
                out.add("`" + p + "`'s row says it uses " + lib + ", which it does not (drift)");
            }
        }
        if (!code.units().get(p).equals(Set.of(row.unit()))) {
            out.add(
                    "`"
                            + p
                            + "`'s classes are built in "
                            + code.units().get(p)
                            + ", its row says "
                            + row.unit());
        }
        for (String to : row.arrows()) {
            Row target = rows.get(to);
            if (target == null) {
                out.add("`" + p + "`'s row lists `" + to + "`, which has no row");
            } else if (UNITS.indexOf(target.unit()) > UNITS.indexOf(row.unit())) {
                out.add(
                        "`"
                                + p
                                + "` ("
                                + row.unit()
                                + ") may not use `"
                                + to
                                + "` ("
                                + target.unit()
                                + "): a unit uses only its own and the units below it");
            }
        }
        return out;
    }

    /** Packages of the code with no row. */
    Set<String> unlisted(Observed code) {
        Set<String> out = new TreeSet<>(code.arrows().keySet());
        out.removeAll(rows.keySet());
        return out;
    }

    private static String ex(Observed code, String key) {
        return code.examples().getOrDefault(key, List.of()).stream()
                .collect(Collectors.joining("; "));
    }

    private static String topLevel(String className) {
        if (!className.startsWith(ROOT)) {
            return null;
        }
        String rest = className.substring(ROOT.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? null : rest.substring(0, dot);
    }

    /**
     * The build unit a class was loaded from: its class directory or jar ({@code lab/target/…} or
     * {@code dpclust-lab-*.jar} is the lab; {@code cli/…} the command line; the rest the product).
     */
    static String unitOf(JavaClass c) {
        String where = c.getSource().map(s -> s.getUri()).map(URI::toString).orElse("");
        for (String unit : Arrays.asList("lab", "cli")) {
            if (where.contains("/" + unit + "/target/")
                    || where.contains("/dpclust-" + unit + "/")
                    || where.contains("dpclust-" + unit + "-")) {
                return unit;
            }
        }
        return "product";
    }
}
