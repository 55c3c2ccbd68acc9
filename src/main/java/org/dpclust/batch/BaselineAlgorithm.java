package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.NoisyLloyd;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * The {@code dp} variants of Lu &amp; Shen's "noisy sums and counts" baselines ({@link
 * NoisyLloyd}): {@code dplloyd} (T = 5, ε/T), {@code dwork} (ε/2^i) and {@code su} (Su et al. 2016,
 * T and the count:dimension split ∛(4dρ²):1 as stated, N released with {@value
 * NoisyLloyd#SU_SIZE_FRACTION} of ε). Guarantee {@link org.dpclust.privacy.Guarantee#DP}: ε-DP
 * under add/remove of one record, sensitivities from the declared bounds (count 1, centred sum
 * width_j/2 per dimension), partition by public centroids, starting from the public initial
 * centroids {@link SnapshotStatistics#publicInitialCentroids} of the public seed.
 */
public final class BaselineAlgorithm implements BatchAlgorithm {
    private final String name;

    public BaselineAlgorithm(String name) {
        if (!name.equals("dplloyd") && !name.equals("dwork") && !name.equals("su")) {
            throw new IllegalArgumentException("unknown baseline " + name);
        }
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public void checkParams(BatchParams params) {
        requireBoundsAndEpsilon(this, params);
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        requirePrivateInputs(this, params, rng);
        int d = params.bounds().dimension();
        NoisyLloyd.Schedule s =
                switch (name) {
                    case "dplloyd" -> NoisyLloyd.dplloyd(params.epsilon());
                    case "dwork" -> NoisyLloyd.dwork(params.epsilon());
                    default ->
                            NoisyLloyd.suWithNoisySize(
                                    params.epsilon(), snapshot.length, params.k(), d, rng);
                };
        var step =
                NoisyLloyd.run(
                        snapshot,
                        SnapshotStatistics.publicInitialCentroids(
                                params.bounds(), params.k(), params.seed()),
                        params.bounds(),
                        s,
                        rng);
        return new BatchResult(
                step.means(),
                step.counts(),
                Map.of(
                        "iterations",
                        (double) s.epsilons().length,
                        "count_fraction",
                        s.countFraction(),
                        "epsilon_spent",
                        name.equals("su") ? params.epsilon() : s.total()));
    }

    /**
     * Declared bounds, a finite ε &gt; 0 and the release's randomness, or an error naming the
     * option.
     */
    static void requirePrivateInputs(BatchAlgorithm a, BatchParams params, PrivacyRandom rng) {
        requireBoundsAndEpsilon(a, params);
        if (rng == null) {
            throw new IllegalArgumentException(
                    "algorithm " + a.name() + " needs the release's privacy randomness");
        }
    }

    /** Declared bounds and a finite ε &gt; 0, or an error naming the option. */
    static void requireBoundsAndEpsilon(BatchAlgorithm a, BatchParams params) {
        if (params.bounds() == null) {
            throw new IllegalArgumentException(
                    "--bounds: algorithm " + a.name() + " needs declared bounds");
        }
        if (!(params.epsilon() > 0) || Double.isInfinite(params.epsilon())) {
            throw new IllegalArgumentException(
                    "--epsilon: algorithm "
                            + a.name()
                            + " needs a finite epsilon > 0, was "
                            + params.epsilon());
        }
    }
}
