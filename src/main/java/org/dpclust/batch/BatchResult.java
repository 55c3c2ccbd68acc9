package org.dpclust.batch;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link BatchAlgorithm} returns: k centroids (k x d), one weight per centroid (for private
 * algorithms a noisy count, for non-private ones the exact cluster size) and the public parameters
 * a consumer needs to interpret the output (sorted, so the Avro encoding is deterministic).
 */
public record BatchResult(double[][] centroids, double[] weights, Map<String, Double> parameters) {
    /** Copies the parameters into a sorted map. */
    public BatchResult {
        parameters = new TreeMap<>(parameters);
    }
}
