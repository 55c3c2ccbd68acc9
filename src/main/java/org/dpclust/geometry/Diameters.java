package org.dpclust.geometry;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The exact diameter max_{i,j} ρ(i, j) of a finite public universe, with pruning by the triangle
 * inequality, for universes too large for {@link Metric#exactDiameter()}'s all pairs. Everything
 * here is public (U and its metric are public); computing the diameter costs no privacy.
 *
 * <p>Algorithm. Pick a pivot c, compute r_i = ρ(c, i) for every i and sort the points by r
 * descending. Since ρ(i, j) <= r_i + r_j, a pair can only beat the best distance found so far (the
 * lower bound, initially max_i r_i) if r_i + r_j exceeds it: for each i (descending r) the inner
 * loop over j > i stops at the first j with r_i + r_j <= bound, and the outer loop stops when r_i +
 * r_{i+1} <= bound. The result is exact (every pair not evaluated is provably not longer); the
 * number of evaluated pairs is returned so callers can report the pruning. Worst case (no pruning)
 * n(n-1)/2 distances. Single-threaded: the metric need not be thread-safe.
 */
public final class Diameters {
    private Diameters() {}

    /**
     * @param diameter the exact diameter
     * @param pairsEvaluated distance evaluations after the n pivot distances
     */
    public record Exact(double diameter, long pairsEvaluated) {}

    /** The exact diameter of {@code metric} with pivot point {@code pivot}. */
    public static Exact exact(Metric metric, int pivot) {
        return pruned(metric, pivot);
    }

    /**
     * The exact diameter of vectors under l1 or l2 ({@link VectorMetric}), the same value as {@code
     * exact(new VectorMetric(points, norm), pivot)}. When every coordinate is an integer and
     * d·(2·max|x|)² < 2^31 (e.g. raw pixels 0..255 with d = 784), distances are computed in exact
     * int arithmetic, which the JIT vectorises (floating-point sums it does not reorder); otherwise
     * in doubles.
     */
    public static Exact exactVectors(double[][] points, VectorMetric.Norm norm, int pivot) {
        double max = 0;
        boolean integral = true;
        for (double[] p : points) {
            for (double v : p) {
                integral &= v == Math.rint(v);
                max = Math.max(max, Math.abs(v));
            }
        }
        if (!integral || points[0].length * (2 * max) * (2 * max) >= Integer.MAX_VALUE) {
            return pruned(new VectorMetric(points, norm), pivot);
        }
        int[][] ints = new int[points.length][];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = Arrays.stream(points[i]).mapToInt(v -> (int) v).toArray();
        }
        return pruned(new IntegerVectors(ints, norm), pivot);
    }

    /**
     * The l1/l2 metric of integer-valued vectors in exact integer arithmetic (the JIT vectorises
     * the integer loops, unlike floating-point reductions): the same distances as {@link
     * VectorMetric}, exactly, when d·(2·max|x|)² < 2^31 (checked by {@link #exactVectors}).
     */
    private record IntegerVectors(int[][] p, VectorMetric.Norm norm) implements Metric {
        @Override
        public int size() {
            return p.length;
        }

        @Override
        public double distance(int i, int j) {
            int[] a = p[i];
            int[] b = p[j];
            int s = 0;
            if (norm == VectorMetric.Norm.L1) {
                for (int t = 0; t < a.length; t++) {
                    s += Math.abs(a[t] - b[t]);
                }
                return s;
            }
            for (int t = 0; t < a.length; t++) {
                int x = a[t] - b[t];
                s += x * x;
            }
            return Math.sqrt((double) s);
        }
    }

    private static Exact pruned(Metric metric, int pivot) {
        int n = metric.size();
        double[] r = metric.distancesFrom(pivot);
        Integer[] boxed = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(
                boxed, Comparator.comparingDouble((Integer i) -> -r[i]).thenComparingInt(i -> i));
        double best = r[boxed[0]];
        long pairs = 0;
        for (int a = 0; a + 1 < n; a++) {
            int i = boxed[a];
            if (r[i] + r[boxed[a + 1]] <= best) {
                break;
            }
            for (int b = a + 1; b < n; b++) {
                int j = boxed[b];
                if (r[i] + r[j] <= best) {
                    break;
                }
                pairs++;
                best = Math.max(best, metric.distance(i, j));
            }
        }
        return new Exact(best, pairs);
    }

    /**
     * The public pivot for {@link #exact} and for the 2·eccentricity bound of a vector universe:
     * the point nearest (under the metric) to the coordinate-wise mean of U.
     */
    public static int nearestToMean(double[][] points, VectorMetric metric) {
        double[] mean = new double[points[0].length];
        for (double[] p : points) {
            for (int t = 0; t < mean.length; t++) {
                mean[t] += p[t] / points.length;
            }
        }
        int c = 0;
        double bestD = Double.POSITIVE_INFINITY;
        for (int i = 0; i < points.length; i++) {
            double d = metric.between(points[i], mean);
            if (d < bestD) {
                bestD = d;
                c = i;
            }
        }
        return c;
    }
}
