package org.dpclust;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package layering of docs/architecture.md, checked on the main classes at every {@code mvn
 * verify}: a change that breaks it fails the build with the offending dependency named.
 */
@AnalyzeClasses(packages = "org.dpclust", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    /** The Flink-free core: algorithms, the privacy core and the per-window release core. */
    private static final String[] CORE = {
        "org.dpclust.kmeans..",
        "org.dpclust.kmedian..",
        "org.dpclust.sketch..",
        "org.dpclust.geometry..",
        "org.dpclust.privacy..",
        "org.dpclust.window.."
    };

    @ArchTest
    static final ArchRule coreIsFreeOfFlinkKafkaAndCli =
            noClasses()
                    .that()
                    .resideInAnyPackage(CORE)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "org.apache.flink..", "org.apache.kafka..", "org.dpclust.cli..")
                    .because(
                            "algorithms, the privacy core and the window core are plain Java;"
                                    + " operators hold state and timers and call them");

    @ArchTest
    static final ArchRule algorithmsDependOnlyOnTheJdkAndEachOther =
            classes()
                    .that()
                    .resideInAnyPackage(
                            "org.dpclust.kmeans..",
                            "org.dpclust.kmedian..",
                            "org.dpclust.sketch..",
                            "org.dpclust.geometry..",
                            "org.dpclust.privacy..")
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage(
                            "java..",
                            "javax..",
                            "org.dpclust.kmeans..",
                            "org.dpclust.kmedian..",
                            "org.dpclust.sketch..",
                            "org.dpclust.geometry..",
                            "org.dpclust.privacy..")
                    .because(
                            "the algorithms are the bottom layer: configuration, I/O, the window"
                                    + " core and the jobs call them, never the other way round");

    @ArchTest
    static final ArchRule theReleaseScheduleIsPlainJava =
            noClasses()
                    .that()
                    .haveFullyQualifiedName("org.dpclust.stream.EventTimePolicy")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage("org.apache.flink..", "org.apache.kafka..")
                    .because(
                            "the time rules and schedule arithmetic are plain Java; the keyed"
                                    + " operator only holds the timers and the state");

    @ArchTest
    static final ArchRule onlyTheEntryPointUsesTheCli =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("org.dpclust.cli..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("org.dpclust.cli..")
                    .because("the command line is the entry point: nothing below it may call it");

    @ArchTest
    static final ArchRule noCyclesBetweenTopLevelPackages =
            slices().matching("org.dpclust.(*)..").should().beFreeOfCycles();
}
