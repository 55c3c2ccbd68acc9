package org.dpclust.eval.experiment;

import java.nio.file.Path;

/**
 * One named evaluation, run by {@code dpclust evaluate NAME}. An experiment is plain Java (no
 * Flink, no Kafka), uses public randomness from fixed seeds and a fixed test secret for privacy
 * noise, writes its report (Markdown + PNG, the exact command and seeds) with {@link
 * org.dpclust.eval.ReportWriter} into {@link ExperimentContext#outDir()}, prints one JSON object
 * per table row when {@link ExperimentContext#json()} is set, and reports progress on stderr.
 */
public interface Experiment {
    /** Registry name, e.g. {@code stats}. */
    String name();

    /** One line for {@code dpclust evaluate --help}. */
    String description();

    /** Runs the experiment and writes its report; returns the report's path. */
    Path run(ExperimentContext context);
}
