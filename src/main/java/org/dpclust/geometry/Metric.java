package org.dpclust.geometry;

/**
 * A metric (or pseudo-metric: distinct indices may be at distance 0) over the points 0..size()-1 of
 * a finite universe. Implementations are public functions of the public universe; nothing here is
 * private. Contract: distance(i, i) = 0, distance(i, j) = distance(j, i) >= 0, finite, and the
 * triangle inequality holds (up to floating-point rounding).
 */
public interface Metric {

    /** Number of points of the universe. */
    int size();

    /** Distance between points i and j. */
    double distance(int i, int j);

    /** All distances from point i, as a new array of length size(). */
    default double[] distancesFrom(int i) {
        double[] row = new double[size()];
        for (int j = 0; j < row.length; j++) {
            row[j] = distance(i, j);
        }
        return row;
    }

    /**
     * An upper bound on the diameter max_{i,j} distance(i, j) from size() distance evaluations: 2
     * max_j distance(0, j) (triangle inequality through point 0). At most twice the diameter.
     */
    default double diameterUpperBound() {
        double ecc = 0;
        for (int j = 1; j < size(); j++) {
            ecc = Math.max(ecc, distance(0, j));
        }
        return 2 * ecc;
    }

    /** The exact diameter by all size()(size()-1)/2 pairs; use on small universes only. */
    default double exactDiameter() {
        double d = 0;
        for (int i = 0; i < size(); i++) {
            for (int j = i + 1; j < size(); j++) {
                d = Math.max(d, distance(i, j));
            }
        }
        return d;
    }
}
