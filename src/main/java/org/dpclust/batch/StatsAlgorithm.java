package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * {@code stats}: the foundation's per-window release ({@link DpClusterStatistics}) applied to the
 * whole snapshot as one window. Guarantee {@link org.dpclust.privacy.Guarantee#DP}: epsilon-DP
 * under add/remove of one unit (at most {@link BatchParams#contributionBound()} records), because
 * the partition ({@link PublicPointSet#uniform} from the public seed) and the declared bounds are
 * public; count sensitivity c (L1), fixed-point sum sensitivity c·d·2^31 units (L1), both noised
 * with the two-sided geometric mechanism (see {@link DpClusterStatistics}). Declared bounds are
 * required; bounds computed from the data would void the label.
 */
public final class StatsAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "stats";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "cells-geometric-v1";
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
        PublicPointSet cells = PublicPointSet.uniform(b, params.cells(), params.seed());
        ClusterStatistics stats = SnapshotStatistics.accumulate(snapshot, codec, cells);
        DpClusterStatistics.Release r =
                DpClusterStatistics.release(
                        stats,
                        codec,
                        SnapshotStatistics.publicInitialCentroids(b, params.k(), params.seed()),
                        new DpClusterStatistics.ReleaseParams(
                                params.epsilon(),
                                params.countFraction(),
                                params.contributionBound()),
                        rng);
        Map<String, Double> p = new HashMap<>(r.parameters());
        return new BatchResult(r.centroids(), r.weights(), p);
    }
}
