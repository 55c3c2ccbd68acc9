package org.dpclust.kmeans;

import java.util.function.ToIntFunction;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;

/**
 * Builds a window's exact {@link ClusterStatistics} from its points exactly as the stream operator
 * does: each point is clamped into the declared bounds, assigned to its nearest point of the public
 * partition ({@link PublicPointSet#uniform}) and added in fixed point ({@link FixedPointCodec}).
 * The result is private (operator-side) until {@link
 * org.dpclust.kmeans.DpClusterStatistics#release} noises it.
 */
public final class SnapshotStatistics {
    private SnapshotStatistics() {}

    /** The exact statistics of {@code points} (not modified) over {@code cells}. */
    public static ClusterStatistics accumulate(
            double[][] points, FixedPointCodec codec, PublicPointSet cells) {
        return accumulate(points, codec, cells.size(), cells::nearest);
    }

    /**
     * The exact statistics of {@code points} (not modified) over {@code size} cells, record x
     * (clamped) in cell {@code cellOf(x)}, a public function of the record.
     */
    public static ClusterStatistics accumulate(
            double[][] points, FixedPointCodec codec, int size, ToIntFunction<double[]> cellOf) {
        DomainBounds b = codec.bounds();
        int d = b.dimension();
        ClusterStatistics stats = new ClusterStatistics(size, d);
        double[] x = new double[d];
        long[] encoded = new long[d];
        for (double[] p : points) {
            if (p.length != d) {
                throw new IllegalArgumentException(
                        "point of dimension " + p.length + " for bounds of dimension " + d);
            }
            b.clamp(p, x);
            codec.encode(x, encoded);
            stats.add(cellOf.applyAsInt(x), encoded);
        }
        return stats;
    }

    /** Public initial centroids drawn from the public seed, as the stream operator draws them. */
    public static double[][] publicInitialCentroids(DomainBounds b, int k, long publicSeed) {
        PublicPointSet p = PublicPointSet.uniform(b, k, publicSeed ^ 0x5DEECE66DL);
        double[][] c = new double[k][];
        for (int i = 0; i < k; i++) {
            c[i] = p.point(i);
        }
        return c;
    }
}
