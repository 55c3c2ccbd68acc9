package org.dpclust.batch;

import java.util.List;
import org.dpclust.config.NamedRegistry;
import org.dpclust.kmeans.BagBound;
import org.dpclust.kmeans.ZoneOrientation;
import org.dpclust.privacy.Guarantee;

/**
 * The registry of batch algorithms by name. The built-ins are registered here; an algorithm issue
 * adds its algorithm with one {@code register} line in the static block. Names are unique; an
 * unknown name is an error naming {@code --algorithm}.
 */
public final class BatchAlgorithms {
    private static final NamedRegistry<BatchAlgorithm> REGISTRY =
            new NamedRegistry<>("algorithm", "--algorithm", BatchAlgorithm::name);

    static {
        register(new LloydAlgorithm());
        register(new StatsAlgorithm());
        register(new EppAlgorithm(BagBound.AdversaryCase.KNOWN_CLUSTER));
        register(new EppAlgorithm(BagBound.AdversaryCase.UNKNOWN_CLUSTER));
        register(new DpKmAlgorithm());
        register(new ExpDpAlgorithm(ZoneOrientation.PAST, true));
        register(new ExpDpAlgorithm(ZoneOrientation.PAST_FUTURE, true));
        register(new ExpDpAlgorithm(ZoneOrientation.PAST, false));
        register(new ExpDpAlgorithm(ZoneOrientation.PAST_FUTURE, false));
        register(new BaselineAlgorithm("dplloyd"));
        register(new BaselineAlgorithm("su"));
        register(new BaselineAlgorithm("dwork"));
        register(new GuptPrivGeneAlgorithm("gupt", true));
        register(new GuptPrivGeneAlgorithm("gupt", false));
        register(new GuptPrivGeneAlgorithm("privgene", true));
        register(new GuptPrivGeneAlgorithm("privgene", false));
        register(KMedianAlgorithm.kmedianPlusPlus());
        register(KMedianAlgorithm.localSearch());
        register(KMedianAlgorithm.dpLocalSearch());
        register(KMedianAlgorithm.dpHstLocalSearch());
        register(new CkmAlgorithm());
        register(new PublicCentreAlgorithm());
        register(new StatsRefineAlgorithm());
        register(new StatsNestedAlgorithm());
        register(new StatsProjAlgorithm());
        register(new StatsProjRefineAlgorithm());
        register(new AutoAlgorithm());
    }

    private BatchAlgorithms() {}

    public static void register(BatchAlgorithm algorithm) {
        REGISTRY.register(algorithm);
    }

    public static BatchAlgorithm get(String name) {
        return REGISTRY.get(name);
    }

    public static List<String> names() {
        return REGISTRY.names();
    }

    /**
     * The registry name of {@code algorithm} in {@code mode} ({@code --mode}): {@code paper} →
     * NAME-paper (which must be registered), {@code strict} → NAME (which must be {@value
     * BatchAlgorithm#DP}), null → NAME as given; anything else is an error naming {@code --mode}.
     */
    public static String withMode(String algorithm, String mode) {
        if (mode == null) {
            return algorithm;
        }
        String base =
                algorithm.endsWith("-paper")
                        ? algorithm.substring(0, algorithm.length() - "-paper".length())
                        : algorithm;
        switch (mode) {
            case "paper" -> {
                if (!names().contains(base + "-paper")) {
                    throw new IllegalArgumentException(
                            "--mode paper: algorithm '"
                                    + base
                                    + "' has no paper form (a NAME-paper algorithm); known: "
                                    + names());
                }
                return base + "-paper";
            }
            case "strict" -> {
                Guarantee guarantee = get(base).guarantee();
                if (guarantee != Guarantee.DP) {
                    throw new IllegalArgumentException(
                            "--mode strict: algorithm '"
                                    + base
                                    + "' is not dp (guarantee "
                                    + guarantee
                                    + ")");
                }
                return base;
            }
            default ->
                    throw new IllegalArgumentException(
                            "--mode must be paper or strict, was '" + mode + "'");
        }
    }
}
