package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.kmeans.ExpDpKMeans;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.kmeans.ZoneOrientation;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Lu &amp; Shen's ExpDP k-means ({@link ExpDpKMeans}) as a batch algorithm, one registry name per
 * orientation and mode, so that the guarantee label is a property of the name (as {@link
 * BatchAlgorithm#guarantee()} requires) and not of a run-time option:
 *
 * <ul>
 *   <li>{@code expdp-past}, {@code expdp-past-future} — strict mode, {@link
 *       org.dpclust.privacy.Guarantee#DP}: ε-DP under add/remove of one record with the declared
 *       bounds; {@value #STRICT_ITERATIONS} iterations charged up front; public initial centroids
 *       {@link SnapshotStatistics#publicInitialCentroids} from the public seed;
 *   <li>{@code expdp-past-paper}, {@code expdp-past-future-paper} — paper mode, {@value
 *       BatchAlgorithm#PAPER_CLAIMED} (not DP, see {@link ExpDpKMeans}): initial centroids are k
 *       records of the snapshot drawn with the public seed (weakness 7); file output and {@code
 *       evaluate} only, never published or charged ({@link PublishPolicy}). The paper accounts
 *       bottom-up; so that the claimed total can never exceed the ε given, each step (and the final
 *       Laplace step) gets ε/({@value #PAPER_CAP} + 1) and the run is capped at {@value #PAPER_CAP}
 *       iterations; the claimed total is reported as {@code claimed_epsilon} (strict runs report
 *       {@code epsilon_spent}).
 * </ul>
 *
 * "paper" = past only is the paper's Fig. 9 "Posterior"; past + future its Fig. 10 "Prior"
 * (docs/algorithms.md#orientation-names).
 */
public final class ExpDpAlgorithm implements BatchAlgorithm {
    public static final int STRICT_ITERATIONS = 5;
    public static final int PAPER_CAP = 50;

    private final ZoneOrientation orientation;
    private final boolean strict;

    public ExpDpAlgorithm(ZoneOrientation orientation, boolean strict) {
        this.orientation = orientation;
        this.strict = strict;
    }

    @Override
    public String name() {
        return "expdp-" + orientation.id().replace('_', '-') + (strict ? "" : "-paper");
    }

    @Override
    public Guarantee guarantee() {
        return strict ? Guarantee.DP : Guarantee.PAPER_CLAIMED;
    }

    @Override
    public String mechanism() {
        return name() + "-v1(iterations=" + (strict ? STRICT_ITERATIONS : PAPER_CAP) + ")";
    }

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
    }

    /**
     * Strict forms release for every snapshot (fewer than k records included: a cluster whose noisy
     * count is below 1 keeps its public centroid). Paper forms draw their k initial centroids from
     * the records and refuse a snapshot of fewer than k; they are never charged to a ledger ({@link
     * PublishPolicy}).
     */
    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        if (!strict && snapshot.length < params.k()) {
            throw new IllegalArgumentException(
                    "--k: the snapshot has " + snapshot.length + " records, fewer than k");
        }
        ExpDpKMeans.Result r;
        if (strict) {
            r =
                    ExpDpKMeans.strict(
                            snapshot,
                            SnapshotStatistics.publicInitialCentroids(
                                    params.bounds(), params.k(), params.seed()),
                            params.bounds(),
                            orientation,
                            params.epsilon(),
                            STRICT_ITERATIONS,
                            rng);
        } else {
            double step = params.epsilon() / (PAPER_CAP + 1);
            r =
                    ExpDpKMeans.paper(
                            snapshot,
                            sampleRecords(snapshot, params.k(), params.seed()),
                            orientation,
                            step,
                            step,
                            PAPER_CAP,
                            rng);
        }
        Map<String, Double> p = new HashMap<>();
        p.put("iterations", (double) r.iterations());
        p.put(strict ? "epsilon_spent" : "claimed_epsilon", r.epsilon());
        p.put("projected_zones", (double) r.projectedZones());
        return new BatchResult(r.centroids(), r.weights(), p);
    }

    /**
     * k distinct records drawn uniformly with the seed: the paper's S^(0) (Alg. 1 line 1; weakness
     * 7).
     */
    public static double[][] sampleRecords(double[][] points, int k, long seed) {
        SplittableRandom rng =
                new SplittableRandom(seed); // public seed; the records themselves are private
        int n = points.length;
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        double[][] out = new double[k][];
        for (int i = 0; i < k; i++) {
            int j = i + rng.nextInt(n - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
            out[i] = points[idx[i]].clone();
        }
        return out;
    }
}
