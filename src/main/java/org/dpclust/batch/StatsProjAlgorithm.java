package org.dpclust.batch;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmeans.ProjectedStatistics;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code stats-proj}: for high dimension and many clusters ({@link ProjectedStatistics}): the
 * records' images under a public random projection to m = {@link
 * ProjectedStatistics#defaultDimension}(k, d) dimensions are partitioned privately by nested cells
 * ({@link BatchParams#cells()} coarse cells of the image box), 2k centres are fitted to the noisy
 * cells, and the records grouped by their image's nearest centre get noisy counts and sums in all d
 * dimensions, from which weighted Lloyd finds k centroids. Guarantee {@link
 * org.dpclust.privacy.Guarantee#DP}: ε-DP under add/remove of one unit of at most c records — a
 * share {@link ProjectedStatistics#defaultShare}(m, d) of ε on the projected nested cells (coarse
 * counts L1 c; frontier counts L1 c and image sums L1 c·m·2^31 units), the rest on the 2k groups'
 * counts (L1 c) and sums (L1 c·d·2^31 units); see {@link ProjectedStatistics}. Declared bounds are
 * required.
 */
public final class StatsProjAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "stats-proj";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "projected-cells-geometric-v1";
    }

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        DomainBounds b = params.bounds();
        ProjectedStatistics.Plan plan =
                ProjectedStatistics.Plan.of(b, params.k(), params.cells(), params.seed());
        DpClusterStatistics.Release r =
                ProjectedStatistics.release(
                        snapshot,
                        new FixedPointCodec(b),
                        plan,
                        SnapshotStatistics.publicInitialCentroids(b, params.k(), params.seed()),
                        params.epsilon(),
                        ProjectedStatistics.defaultShare(
                                plan.projection().dimension(), b.dimension()),
                        params.contributionBound(),
                        rng);
        return new BatchResult(r.centroids(), r.weights(), r.parameters());
    }
}
