package org.dpclust.kmedian;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.synthetic.DriftingGaussianMixture;

/**
 * The snap rules' reference configuration, shared by their tests: |U| = 4096 uniform in the unit
 * box, d = 10, and 3,000 records the rules' placements are pinned on.
 */
public final class SnapReference {
    public static final int D = 10;
    public static final int N = 4096;

    /** The instance the rules' placements are pinned on (public seed 2026), built once. */
    public static final SnapReference PINNED = new SnapReference(2026);

    public final double[][] pts = new double[N][];
    public final double[] rows = new double[N * D];

    SnapReference(long seed) {
        double[] hi = new double[D];
        Arrays.fill(hi, 1.0);
        DomainBounds box = new DomainBounds(new double[D], hi);
        PublicPointSet u = PublicPointSet.uniform(box, N, seed);
        for (int p = 0; p < N; p++) {
            pts[p] = u.point(p);
            System.arraycopy(pts[p], 0, rows, p * D, D);
        }
    }

    /** The stream generator's mixture (σ = 0.03 and 0.1), clamped, and uniform records. */
    public static List<double[]> records() {
        double[] lo = new double[D];
        double[] hi = new double[D];
        Arrays.fill(hi, 1.0);
        List<double[]> out = new ArrayList<>();
        for (double sigma : new double[] {0.03, 0.1}) {
            for (double[] x :
                    new DriftingGaussianMixture(lo, hi, 10, sigma, 0.25, 7).sample(0, 1000)) {
                for (int t = 0; t < D; t++) {
                    x[t] = Math.min(1.0, Math.max(0.0, x[t]));
                }
                out.add(x);
            }
        }
        SplittableRandom r = new SplittableRandom(5); // public randomness (not privacy noise)
        for (int i = 0; i < 1000; i++) {
            double[] x = new double[D];
            for (int t = 0; t < D; t++) {
                x[t] = r.nextDouble();
            }
            out.add(x);
        }
        return out;
    }

    /** A hash of where {@code snap} puts each of {@link #records()}, in order. */
    public static long placementHash(java.util.function.ToIntFunction<double[]> snap) {
        return hash(records().stream().mapToInt(snap));
    }

    /** The placements' hash: h = 17, then h = h · 1,000,003 + value for each value in order. */
    public static long hash(java.util.stream.IntStream values) {
        long[] h = {17};
        values.forEachOrdered(v -> h[0] = h[0] * 1_000_003L + v);
        return h[0];
    }

    /**
     * Asserts that {@code snap} is a function of the record alone: each of {@link #records()} gets
     * the same point in a shuffled order, from {@code other} (another instance of the same rule)
     * and for a copy of the record.
     */
    public static void assertAFunctionOfTheRecordAlone(
            java.util.function.ToIntFunction<double[]> snap,
            java.util.function.ToIntFunction<double[]> other) {
        List<double[]> xs = records();
        int[] first = new int[xs.size()];
        for (int i = 0; i < xs.size(); i++) {
            first[i] = snap.applyAsInt(xs.get(i));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < xs.size(); i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, new java.util.Random(11));
        for (int i : order) {
            org.junit.jupiter.api.Assertions.assertEquals(
                    first[i], other.applyAsInt(xs.get(i)), "record " + i);
            org.junit.jupiter.api.Assertions.assertEquals(
                    first[i], snap.applyAsInt(xs.get(i).clone()), "record " + i);
        }
    }
}
