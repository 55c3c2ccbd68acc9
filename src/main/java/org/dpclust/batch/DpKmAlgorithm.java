package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;
import org.dpclust.kmeans.NoisyFinalCentroids;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code dp-km}: paper 002's DP-KM baseline ({@link NoisyFinalCentroids}): non-private Lloyd
 * (k-means++ seeding from the public seed, best of {@code nInit}), then Laplace noise on each
 * cluster's sum (ε/2, L1 sensitivity from the declared bounds) and count (ε/2). Guarantee {@value
 * BatchAlgorithm#PAPER_CLAIMED}: the noisy step is ε-DP for a fixed partition, but the partition
 * itself is computed exactly from the private data, so the release is not differentially private
 * end to end. Needs declared bounds.
 */
public final class DpKmAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "dp-km";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.PAPER_CLAIMED;
    }

    @Override
    public void checkParams(BatchParams params) {
        if (params.bounds() == null) {
            throw new IllegalArgumentException(
                    "--bounds: dp-km calibrates its noise to declared bounds");
        }
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        checkParams(params);
        LloydResult partition =
                Lloyd.run(
                        snapshot,
                        params.k(),
                        params.nInit(),
                        Lloyd.DEFAULT_MAX_ITERATIONS,
                        params.seed());
        NoisyFinalCentroids.Release r =
                NoisyFinalCentroids.release(
                        snapshot, partition, params.bounds(), params.epsilon(), rng);
        return new BatchResult(
                r.centroids(),
                r.weights(),
                Map.of(
                        "epsilon_sum",
                        params.epsilon() / 2,
                        "epsilon_count",
                        params.epsilon() / 2,
                        "lloyd_iterations",
                        (double) partition.iterations(),
                        "n_init",
                        (double) params.nInit()));
    }
}
