package org.dpclust.batch;

import java.io.Serializable;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.Lloyd;

/**
 * Public parameters of one batch run. Everything here is public: the bounds are declared (never
 * computed from the snapshot), the seed drives only public randomness (partitions, Lloyd seeding),
 * and epsilon is the budget the release spends.
 *
 * @param k number of centroids
 * @param epsilon epsilon of the release (ignored by non-private algorithms; NaN when not given)
 * @param bounds declared per-dimension bounds, or null when the algorithm does not need them
 * @param seed seed of the public randomness
 * @param nInit restarts of non-private Lloyd (k-means++ seedings)
 * @param cells size of the public partition of the {@code stats} algorithm
 * @param countFraction share of epsilon spent on counts by {@code stats}; NaN = its derived default
 * @param contributionBound records one privacy unit may contribute to the snapshot (1 for record
 *     units)
 * @param universe the public universe U of the k-median algorithms ({@code --universe}, or {@code
 *     --metric graph}), or null for the others
 */
public record BatchParams(
        int k,
        double epsilon,
        DomainBounds bounds,
        long seed,
        int nInit,
        int cells,
        double countFraction,
        int contributionBound,
        KMedianUniverse universe)
        implements Serializable {

    /** Parameters without a k-median universe. */
    public BatchParams(
            int k,
            double epsilon,
            DomainBounds bounds,
            long seed,
            int nInit,
            int cells,
            double countFraction,
            int contributionBound) {
        this(k, epsilon, bounds, seed, nInit, cells, countFraction, contributionBound, null);
    }

    /** The same parameters with the k-median universe {@code u}. */
    public BatchParams withUniverse(KMedianUniverse u) {
        return new BatchParams(
                k, epsilon, bounds, seed, nInit, cells, countFraction, contributionBound, u);
    }

    /** The same parameters with {@code cells} cells for {@code stats}. */
    public BatchParams withCells(int cells) {
        return new BatchParams(
                k, epsilon, bounds, seed, nInit, cells, countFraction, contributionBound, universe);
    }

    /** The largest k (public): a release of more centroids is refused at start-up. */
    public static final int MAX_K = 10_000;

    /** Restarts of the non-private reference, as in {@link org.dpclust.kmeans.Lloyd#BEST_OF}. */
    public static final int DEFAULT_N_INIT = Lloyd.BEST_OF;

    /** Validates the fields that every algorithm relies on. */
    public BatchParams {
        if (k < 1 || k > MAX_K) {
            throw new IllegalArgumentException("--k must be between 1 and " + MAX_K + ", was " + k);
        }
        if (nInit < 1) {
            throw new IllegalArgumentException("--n-init must be >= 1, was " + nInit);
        }
        if (cells < k) {
            throw new IllegalArgumentException("--cells must be >= k (" + k + "), was " + cells);
        }
        if (contributionBound < 1) {
            throw new IllegalArgumentException(
                    "contribution bound must be >= 1, was " + contributionBound);
        }
    }

    /** The default partition size of the stream configuration: max(64, 16·k). */
    public static int defaultCells(int k) {
        return Math.max(64, 16 * k);
    }
}
