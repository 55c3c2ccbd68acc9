package org.dpclust.batch;

import java.util.Arrays;
import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code public-centre}: the data-free answer. All k centroids are the centre of the declared box
 * and every weight is 0, whatever the snapshot holds. Guarantee {@link
 * org.dpclust.privacy.Guarantee#DP} with ε = 0: the output is a function of the public bounds and k
 * only (sensitivity 0), so it reveals nothing about any record; it never reads the snapshot and
 * never draws from the release's randomness.
 *
 * <p>It is the floor no private release should lose to: when the data are too thin for the budget,
 * the honest release is the public one ({@code evaluate utility} reports it beside every method,
 * and {@code --algorithm auto} includes it as a candidate). Through {@link SnapshotRelease} a run
 * is still charged the ε it is given (a charge larger than the spend is safe); {@code
 * epsilon_spent} in the result's parameters says 0.
 */
public final class PublicCentreAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "public-centre";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public void checkParams(BatchParams params) {
        if (params.bounds() == null) {
            throw new IllegalArgumentException(
                    "--bounds: algorithm public-centre needs declared bounds");
        }
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        checkParams(params);
        return new BatchResult(
                centres(params.bounds(), params.k()),
                new double[params.k()],
                Map.of("epsilon_spent", 0.0));
    }

    /** k copies of the centre of {@code bounds} (public). */
    public static double[][] centres(DomainBounds bounds, int k) {
        int d = bounds.dimension();
        double[] c = new double[d];
        for (int j = 0; j < d; j++) {
            c[j] = bounds.mid(j);
        }
        double[][] out = new double[k][];
        for (int i = 0; i < k; i++) {
            out[i] = Arrays.copyOf(c, d);
        }
        return out;
    }
}
