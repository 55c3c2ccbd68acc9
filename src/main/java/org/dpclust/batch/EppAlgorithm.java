package org.dpclust.batch;

import java.util.Map;
import org.dpclust.kmeans.BagBound;
import org.dpclust.kmeans.EppKMeans;
import org.dpclust.kmeans.ExcludedErrorVariance;
import org.dpclust.kmeans.Lloyd;
import org.dpclust.kmeans.LloydResult;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code epp-1} / {@code epp-2}: EPP-KM ({@link EppKMeans}) with the Case 1 (cluster known to the
 * adversary) or Case 2 (cluster unknown) bound on the number of bags, in the joint-variance form
 * ({@link BagBound.VarianceForm#JOINT}, the correct variance of the bagged centroid) with E_exc =
 * within-cluster variance ({@link ExcludedErrorVariance#WITHIN_CLUSTER}).
 *
 * <p>Guarantee {@link org.dpclust.privacy.Guarantee#EPP}: error-preserving privacy, <b>not
 * differential privacy</b>. The partition comes from non-private Lloyd (k-means++ seeding from the
 * public seed, best of {@code nInit}), the weights are the exact cluster sizes, and B depends on
 * the data. Declared bounds are not needed (nothing is calibrated to them; if given, the CLI clamps
 * into them). Only the bags use the release's {@link PrivacyRandom}. EPP output is batch-only: it
 * may not go to a stream's centroids topic or charge a stream's {@code dp} ledger (the batch CLI
 * refuses {@code --output kafka}).
 */
public final class EppAlgorithm implements BatchAlgorithm {
    private final BagBound.AdversaryCase adversary;

    public EppAlgorithm(BagBound.AdversaryCase adversary) {
        this.adversary = adversary;
    }

    @Override
    public String name() {
        return adversary == BagBound.AdversaryCase.KNOWN_CLUSTER ? "epp-1" : "epp-2";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EPP;
    }

    @Override
    public void checkParams(BatchParams params) {
        if (!(params.epsilon() >= 0)) {
            throw new IllegalArgumentException(
                    "--epsilon: " + name() + " needs epsilon >= 0, was " + params.epsilon());
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
        EppKMeans.Release r =
                EppKMeans.release(
                        snapshot,
                        partition,
                        params.epsilon(),
                        adversary,
                        BagBound.VarianceForm.JOINT,
                        ExcludedErrorVariance.WITHIN_CLUSTER,
                        rng);
        return new BatchResult(
                r.centroids(),
                r.sizes(),
                Map.of(
                        "bags",
                        (double) r.bound().bags(),
                        "b_max",
                        r.bound().bMax(),
                        "feasible",
                        r.bound().feasible() ? 1.0 : 0.0,
                        "lloyd_iterations",
                        (double) partition.iterations(),
                        "n_init",
                        (double) params.nInit()));
    }
}
