package org.dpclust.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dpclust.eval.JsonRows;
import org.dpclust.eval.experiment.Experiment;
import org.dpclust.eval.experiment.ExperimentContext;
import org.dpclust.eval.experiment.Experiments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpclust evaluate EXPERIMENT}: runs a registered experiment and writes its report. */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        description = "Run an evaluation experiment and write its report (Markdown + PNG).")
public final class EvaluateCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            paramLabel = "EXPERIMENT",
            completionCandidates = ExperimentNames.class,
            description = "Experiment: ${COMPLETION-CANDIDATES}.")
    String experiment;

    @Option(names = "--json", description = "Print one JSON object per table row on stdout.")
    boolean json;

    @Option(
            names = "--out",
            description =
                    "Report directory (default evaluate-out/EXPERIMENT; the committed reports are"
                            + " refreshed with --out docs/results/EXPERIMENT).")
    Path out;

    @Option(names = "--quick", description = "A small, fast configuration (smoke runs and tests).")
    boolean quick;

    @Option(
            names = "--full",
            description =
                    "The experiment's full configuration, where it has one (e.g. expdp: 300 runs per point).")
    boolean full;

    @Override
    public Integer call() {
        if (full && quick) {
            throw new IllegalArgumentException("--full and --quick exclude each other");
        }
        Experiment e = Experiments.get(full ? fullName(experiment) : experiment);
        Path dir = out != null ? out : defaultOut(e.name());
        String command =
                "dpclust evaluate "
                        + experiment
                        + (full ? " --full" : "")
                        + (quick ? " --quick" : "")
                        + (json ? " --json" : "")
                        + (out != null ? " --out " + out : "");
        Path report =
                e.run(
                        new ExperimentContext(
                                dir, quick, json ? new JsonRows(System.out) : null, command));
        System.err.println("dpclust evaluate: report written to " + report);
        return 0;
    }

    /**
     * The registered name of an experiment's full configuration ({@code NAME-full}), or a clear
     * error.
     */
    private static String fullName(String experiment) {
        String name = experiment + "-full";
        try {
            Experiments.get(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--full: experiment '" + experiment + "' has no full configuration");
        }
        return name;
    }

    /** Where a report goes without {@code --out}: never over a committed report by default. */
    static Path defaultOut(String experiment) {
        return Path.of("evaluate-out", experiment);
    }

    /** The registered experiments, for {@code --help}. */
    static final class ExperimentNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Experiments.names().iterator();
        }
    }
}
