package org.dpclust;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * docs/architecture.md's package table, held against the main classes of every unit (product, lab,
 * command line) at every {@code mvn verify}: one test per row (its arrows, its libraries, its unit,
 * in both directions), every package has a row, and no cycles between packages. Editing the code
 * without the table, or the table without the code, fails here, naming the class and dependency.
 */
class ArchitectureTest {
    static final Path DOC = Path.of("docs", "architecture.md");

    private static LayeringTable table;
    private static LayeringTable.Observed code;
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() throws Exception {
        table = LayeringTable.read(DOC);
        classes = mainClasses();
        code = LayeringTable.observe(classes);
    }

    /** Every main class of org.dpclust on the classpath: no test classes, no test-jars. */
    static JavaClasses mainClasses() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("org.dpclust");
    }

    @TestFactory
    Stream<DynamicTest> everyRowOfTheTableHolds() {
        return table.rows().values().stream()
                .map(
                        row ->
                                DynamicTest.dynamicTest(
                                        row.unit() + " / " + row.pkg(),
                                        () ->
                                                assertEquals(
                                                        List.of(),
                                                        table.violations(row, code),
                                                        DOC + ", row `" + row.pkg() + "`")));
    }

    @Test
    void everyPackageHasARow() {
        assertEquals(Set.of(), table.unlisted(code), "packages missing from " + DOC);
        assertTrue(table.rows().size() >= 20, "the table was read whole: " + table.rows().keySet());
    }

    @Test
    void noCyclesBetweenTopLevelPackages() {
        slices().matching("org.dpclust.(*)..").should().beFreeOfCycles().check(classes);
    }
}
