package org.dpclust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link LayeringTable} fails where it must: the real table and classes with one thing changed — a
 * row that loses an arrow, a product row that names a lab package, a product class that uses the
 * lab, a library the row does not allow, an arrow the code no longer has.
 */
class LayeringTableTest {
    private static String doc;
    private static LayeringTable.Observed code;

    @BeforeAll
    static void read() throws Exception {
        doc = Files.readString(ArchitectureTest.DOC);
        code = LayeringTable.observe(ArchitectureTest.mainClasses());
    }

    private static List<String> violations(String markdown, String pkg, LayeringTable.Observed c) {
        LayeringTable t = LayeringTable.parse(markdown);
        return t.violations(t.rows().get(pkg), c);
    }

    private static String rowOf(String pkg) {
        for (String line : doc.split("\n")) {
            if (line.matches("\\| [a-z]+ \\| `" + pkg + "` \\|.*")) {
                return line;
            }
        }
        throw new AssertionError("no row for " + pkg);
    }

    @Test
    void theRealTableHolds() {
        assertEquals(List.of(), violations(doc, "stream", code));
        assertEquals(List.of(), violations(doc, "kmeans", code));
    }

    @Test
    void aDependencyMissingFromItsRowFails() {
        String row = rowOf("stream");
        String edited = doc.replace(row, row.replace("`sketch`, `window` |", "`sketch` |"));
        assertTrue(
                violations(edited, "stream", code).get(0).startsWith("`stream` uses `window`"),
                violations(edited, "stream", code).toString());
    }

    @Test
    void anArrowTheCodeDoesNotHaveFails() {
        String row = rowOf("kmeans");
        String edited =
                doc.replace(
                        row,
                        row.replace(
                                "`geometry`, `privacy` |", "`geometry`, `privacy`, `sketch` |"));
        assertEquals(
                List.of("`kmeans`'s row lists `sketch`, which no class of it uses (drift)"),
                violations(edited, "kmeans", code));
    }

    @Test
    void aProductClassUsingTheLabFails() {
        // the build already refuses it (the product unit does not see the lab's classes); this is
        // the same import as the test would see it: window -> eval
        LayeringTable.Observed withImport = withArrow(code, "window", "eval");
        List<String> v = violations(doc, "window", withImport);
        assertTrue(
                v.get(0).startsWith("`window` uses `eval`, which its row does not list"),
                v.toString());
        // and writing the arrow into the row does not make it legal
        String row = rowOf("window");
        String edited =
                doc.replace(
                        row, row.replace("`config`, `geometry`", "`config`, `eval`, `geometry`"));
        assertEquals(
                List.of(
                        "`window` (product) may not use `eval` (lab): a unit uses only its own and the units below it"),
                violations(edited, "window", withImport));
    }

    @Test
    void aLibraryTheRowDoesNotAllowFails() {
        Map<String, Set<String>> libs = new TreeMap<>(code.libraries());
        libs.put("kmeans", new TreeSet<>(Set.of("Flink")));
        LayeringTable.Observed flinkInKmeans =
                new LayeringTable.Observed(code.arrows(), libs, code.units(), code.examples());
        assertTrue(
                violations(doc, "kmeans", flinkInKmeans).get(0).startsWith("`kmeans` uses Flink"),
                violations(doc, "kmeans", flinkInKmeans).toString());
        String row = rowOf("kafka");
        String edited = doc.replace(row, row.replace("| Flink, Kafka |", "| Kafka |"));
        assertTrue(
                violations(edited, "kafka", code).get(0).startsWith("`kafka` uses Flink"),
                violations(edited, "kafka", code).toString());
    }

    @Test
    void aPackageInTheWrongUnitFails() {
        String row = rowOf("eval");
        String edited = doc.replace(row, row.replace("| lab | `eval`", "| product | `eval`"));
        assertTrue(
                violations(edited, "eval", code)
                        .contains("`eval`'s classes are built in [lab], its row says product"),
                violations(edited, "eval", code).toString());
    }

    @Test
    void aPackageWithoutARowIsNamed() {
        String edited = doc.replace(rowOf("quality") + "\n", "");
        assertEquals(Set.of("quality"), LayeringTable.parse(edited).unlisted(code));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        LayeringTable.parse(
                                doc.replace("| product | `geometry`", "| core | `geometry`")));
    }

    private static LayeringTable.Observed withArrow(
            LayeringTable.Observed c, String from, String to) {
        Map<String, Set<String>> arrows = new TreeMap<>(c.arrows());
        Set<String> a = new TreeSet<>(arrows.get(from));
        a.add(to);
        arrows.put(from, a);
        return new LayeringTable.Observed(arrows, c.libraries(), c.units(), c.examples());
    }
}
