package org.dpclust.window;

import java.util.Map;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmedian.HstWindowSummary;

/**
 * The centroids one release publishes, whatever summary or batch algorithm produced them: the
 * (noisy, post-processed) centres, their weights, and the release's public parameters — what {@link
 * ReleaseAssembler} turns into a published {@code CentroidRelease}. Every field is the output of a
 * DP mechanism or post-processing of it (or, for a batch algorithm labelled otherwise, what its
 * guarantee label says); nothing here is exact data.
 *
 * @param weights one per centroid, or empty when the summary publishes none (dp-hst releases the
 *     centres of its k heaviest nodes, whose noisy counts are in its own parameters)
 */
public record ReleasedCentroids(
        double[][] centroids, double[] weights, Map<String, Double> parameters) {
    public ReleasedCentroids {
        if (weights.length != 0 && weights.length != centroids.length) {
            throw new IllegalArgumentException(
                    weights.length + " weights for " + centroids.length + " centroids");
        }
    }

    /** A stats release: noisy cell means and their noisy counts. */
    public static ReleasedCentroids of(DpClusterStatistics.Release r) {
        return new ReleasedCentroids(r.centroids(), r.weights(), r.parameters());
    }

    /** A dp-hst release: the centres of the k heaviest nodes, without weights. */
    public static ReleasedCentroids of(HstWindowSummary.Release h) {
        return new ReleasedCentroids(h.centroids(), new double[0], h.parameters());
    }
}
