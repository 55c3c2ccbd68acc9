package org.dpclust.eval.experiment;

import java.nio.file.Path;
import org.dpclust.eval.JsonRows;

/**
 * How an {@link Experiment} is run.
 *
 * @param outDir where the report goes
 * @param quick a small configuration (tests, smoke runs); the report says so
 * @param json where table rows go as JSON lines, or null when {@code --json} was not given
 * @param command the command line that reproduces the run (recorded in the report)
 */
public record ExperimentContext(Path outDir, boolean quick, JsonRows json, String command) {}
