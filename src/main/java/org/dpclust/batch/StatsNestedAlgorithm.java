package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.NestedPointSet;
import org.dpclust.kmeans.CellRule;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmeans.NestedCellStatistics;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code stats-nested}: the {@code stats} summary over nested public cells refined privately
 * ({@link NestedCellStatistics}): {@link BatchParams#cells()} coarse cells (default max(64, 16k)),
 * each split into its fine children where its noisy count supports them, {@link
 * CellRule#maxCells}(d) fine cells in all — no record count needs to be declared. Guarantee {@value
 * BatchAlgorithm#DP}: ε-DP under add/remove of one unit of at most c records ({@value
 * NestedCellStatistics#DEFAULT_SPLIT_SHARE} of ε on the coarse counts, L1 sensitivity c; the rest
 * on the frontier's counts and sums, L1 sensitivities c and c·d·2^31 units; see {@link
 * NestedCellStatistics}). Declared bounds are required.
 */
public final class StatsNestedAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "stats-nested";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "nested-cells-geometric-v1";
    }

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        DomainBounds b = params.bounds();
        FixedPointCodec codec = new FixedPointCodec(b);
        int coarse = params.cells();
        NestedPointSet cells =
                NestedPointSet.uniform(
                        b,
                        coarse,
                        Math.max(coarse, CellRule.maxCells(b.dimension())),
                        params.seed());
        ClusterStatistics fine =
                SnapshotStatistics.accumulate(snapshot, codec, cells.fineSize(), cells::fine);
        NestedCellStatistics.Noisy noisy =
                NestedCellStatistics.noise(
                        fine,
                        cells,
                        codec,
                        params.epsilon(),
                        NestedCellStatistics.DEFAULT_SPLIT_SHARE,
                        params.contributionBound(),
                        rng);
        DpClusterStatistics.Release r =
                DpClusterStatistics.postProcess(
                        noisy.cells(),
                        codec,
                        SnapshotStatistics.publicInitialCentroids(b, params.k(), params.seed()),
                        rng);
        Map<String, Double> p = new HashMap<>(r.parameters());
        p.put("epsilon_split", params.epsilon() * NestedCellStatistics.DEFAULT_SPLIT_SHARE);
        p.put("coarse_cells", (double) cells.coarseSize());
        p.put("fine_cells", (double) cells.fineSize());
        return new BatchResult(r.centroids(), r.weights(), p);
    }
}
