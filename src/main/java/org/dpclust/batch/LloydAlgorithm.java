package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code lloyd}: the non-private reference — Lloyd with k-means++ seeding, best of {@code nInit}
 * restarts ({@link Lloyd#run}). Guarantee {@link org.dpclust.privacy.Guarantee#NONE}: nothing is
 * private about its output (exact centroids and exact cluster sizes), so it never charges a ledger
 * and never goes to the centroids topic. Its only randomness is the public seeding, from {@link
 * BatchParams#seed()}.
 */
public final class LloydAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "lloyd";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.NONE;
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        LloydResult r =
                Lloyd.run(
                        snapshot,
                        params.k(),
                        params.nInit(),
                        Lloyd.DEFAULT_MAX_ITERATIONS,
                        params.seed());
        double[] sizes = new double[params.k()];
        for (int a : r.assignment()) {
            sizes[a]++;
        }
        return new BatchResult(
                r.centroids(),
                sizes,
                Map.of(
                        "sse",
                        r.sse(),
                        "iterations",
                        (double) r.iterations(),
                        "n_init",
                        (double) params.nInit()));
    }
}
