package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.GuptKMeans;
import org.dpclust.kmeans.PrivGeneKMeans;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * The GUPT ({@link GuptKMeans}) and PrivGene ({@link PrivGeneKMeans}) baselines of Lu &amp; Shen's
 * §7 as batch algorithms, one registry name per form so that the label is a property of the name:
 *
 * <ul>
 *   <li>{@code gupt}, {@code privgene} — strict, {@link org.dpclust.privacy.Guarantee#DP}: ε-DP
 *       under add/remove of one record with the declared bounds (GUPT: aggregation L1 sensitivity
 *       k·d/ℓ in box units; PrivGene: utility sensitivity Σ_j width_j²; both: N released with
 *       {@value org.dpclust.kmeans.NoisyLloyd#SU_SIZE_FRACTION} of ε for their n-dependent
 *       parameter), from the public initial centroids {@link
 *       SnapshotStatistics#publicInitialCentroids} of the public seed;
 *   <li>{@code gupt-paper}, {@code privgene-paper} — the papers' forms, {@value
 *       BatchAlgorithm#PAPER_CLAIMED}: exact N (GUPT also permutation blocks, which an added record
 *       shifts), initial centroids k records of the snapshot drawn with the public seed ({@link
 *       ExpDpAlgorithm#sampleRecords}).
 * </ul>
 *
 * Neither method releases cluster sizes, so the weights are 0 (releasing them would cost budget).
 */
public final class GuptPrivGeneAlgorithm implements BatchAlgorithm {
    private final boolean gupt;
    private final boolean strict;

    public GuptPrivGeneAlgorithm(String method, boolean strict) {
        if (!method.equals("gupt") && !method.equals("privgene")) {
            throw new IllegalArgumentException("unknown baseline " + method);
        }
        this.gupt = method.equals("gupt");
        this.strict = strict;
    }

    @Override
    public String name() {
        return (gupt ? "gupt" : "privgene") + (strict ? "" : "-paper");
    }

    @Override
    public Guarantee guarantee() {
        return strict ? Guarantee.DP : Guarantee.PAPER_CLAIMED;
    }

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        // paper mode draws its k initial centroids from the records; the strict forms need no
        // minimum size, and
        // refusing a small snapshot there would reveal its exact size
        if (!strict && snapshot.length < params.k()) {
            throw new IllegalArgumentException(
                    "--k: the snapshot has " + snapshot.length + " records, fewer than k");
        }
        double[][] init =
                strict
                        ? SnapshotStatistics.publicInitialCentroids(
                                params.bounds(), params.k(), params.seed())
                        : ExpDpAlgorithm.sampleRecords(snapshot, params.k(), params.seed());
        String spent = strict ? "epsilon_spent" : "claimed_epsilon";
        if (gupt) {
            GuptKMeans.Result r =
                    strict
                            ? GuptKMeans.strict(
                                    snapshot,
                                    init,
                                    params.bounds(),
                                    params.epsilon(),
                                    params.seed(),
                                    rng)
                            : GuptKMeans.paper(
                                    snapshot,
                                    init,
                                    params.bounds(),
                                    params.epsilon(),
                                    params.seed(),
                                    rng);
            return new BatchResult(
                    r.centroids(),
                    new double[params.k()],
                    Map.of(
                            "blocks",
                            (double) r.blocks(),
                            "noise_scale_box_units",
                            r.noiseScale(),
                            spent,
                            r.epsilon()));
        }
        PrivGeneKMeans.Result r =
                strict
                        ? PrivGeneKMeans.strict(
                                snapshot,
                                init,
                                params.bounds(),
                                params.epsilon(),
                                params.seed(),
                                rng)
                        : PrivGeneKMeans.paper(
                                snapshot,
                                init,
                                params.bounds(),
                                params.epsilon(),
                                params.seed(),
                                rng);
        return new BatchResult(
                r.centroids(),
                new double[params.k()],
                Map.of(
                        "generations",
                        (double) r.schedule().generations(),
                        "utility_sensitivity",
                        PrivGeneKMeans.sensitivity(params.bounds()),
                        spent,
                        r.epsilon()));
    }
}
