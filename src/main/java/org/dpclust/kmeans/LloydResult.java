package org.dpclust.kmeans;

/**
 * Outcome of a {@link Lloyd} run.
 *
 * <p>Contract: {@code centroids} is k×d; {@code assignment[i]} is the index of the centroid nearest
 * to point i (ties to the lowest index) <em>for these centroids</em>; {@code sse} is the (weighted,
 * for {@link Lloyd#runWeighted}) sum of squared distances of the points to their assigned centroid;
 * {@code iterations} is the number of centroid-update steps performed. Arrays are owned by the
 * result and not shared with the input.
 */
public record LloydResult(double[][] centroids, int[] assignment, double sse, int iterations) {}
