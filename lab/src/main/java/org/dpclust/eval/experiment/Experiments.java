package org.dpclust.eval.experiment;

import java.util.List;
import org.dpclust.config.NamedRegistry;

/**
 * The registry of experiments by name. An algorithm issue adds its experiment with one {@code
 * register} line in the static block. Names are unique; an unknown name is an error listing the
 * known ones.
 */
public final class Experiments {
    private static final NamedRegistry<Experiment> REGISTRY =
            new NamedRegistry<>("experiment", "EXPERIMENT", Experiment::name);

    static {
        register(new StatsReplayExperiment());
        register(new EppExperiment());
        register(new ExpDpExperiment(false));
        register(new ExpDpExperiment(true));
        register(new KMedianPaperExperiment());
        register(new CkmEvaluation(false));
        register(new CkmEvaluation(true));
        register(new DeviceDayExperiment());
        register(new UtilityExperiment());
        register(new HstSnapExperiment());
        register(new CkmMaskExperiment());
    }

    private Experiments() {}

    public static void register(Experiment e) {
        REGISTRY.register(e);
    }

    public static Experiment get(String name) {
        return REGISTRY.get(name);
    }

    public static List<String> names() {
        return REGISTRY.names();
    }
}
