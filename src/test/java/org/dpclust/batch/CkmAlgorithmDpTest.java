package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.MaskedSketch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of batch {@code ckm}'s mechanism ({@link CkmAlgorithm#sketch} and {@link
 * CkmAlgorithm#release}: the snapshot's sketch with every record on all m = 10·k·d features,
 * released add/remove; the decode is post-processing; tier {@code dp}).
 *
 * <p>Pair: D = 20 public records, D' = D + x with x the grid point of the box whose features have
 * the largest L1 norm Σ_j |cos θ_j| + |sin θ_j| (the largest sum change any record makes with these
 * public frequencies) — every one of the 2m sum coordinates moves, and the count by 1. Statistic:
 * the privacy-loss variable over all 2m + 1 coordinates at the calibrated scales. Tested at the
 * pair's exact loss bound: its sum L1 change over the sum scale plus one over the count scale (≤
 * ε).
 *
 * <p>Parameters: k = d = 1, so m = 10, and ε = 6. With the difference spread over 2m coordinates
 * the loss of a pure L1-calibrated mechanism concentrates (a sum of 21 bounded terms), so halved
 * noise leaves a hockey-stick divergence e^ε-tests can see only at large ε: simulated, about 0.012
 * at ε = 3 and 0.05 at ε = 6 for m = 10 (and far less for larger m) — a tolerance of 0.01 cannot
 * resolve the former. The sparse-difference sketch tests in {@link
 * org.dpclust.sketch.DpSketchReleaseDpTest} cover the release at ε = 1.
 */
@Tag("dp")
class CkmAlgorithmDpTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});

    @Test
    void theSnapshotReleasePassesCalibratedAndFailsWithHalvedNoise() {
        double epsilon = 6.0;
        BatchParams params = new BatchParams(1, epsilon, UNIT, 11, 1, 1, Double.NaN, 1);
        double[][] d = new double[20][];
        for (int i = 0; i < d.length; i++) {
            d[i] = new double[] {(i + 0.5) / d.length};
        }
        MaskedSketch sD = CkmAlgorithm.sketch(d, params);
        long[] a = sD.sums();
        double[] best = null;
        long bestL1 = -1;
        for (int g = 0; g <= 1000; g++) {
            double[] x = {g / 1000.0};
            long[] b = CkmAlgorithm.sketch(new double[][] {x}, params).sums();
            long l1 = 0;
            for (long v : b) {
                l1 += Math.abs(v);
            }
            if (l1 > bestL1) {
                bestL1 = l1;
                best = x;
            }
        }
        double[][] dPrime = java.util.Arrays.copyOf(d, d.length + 1);
        dPrime[d.length] = best;
        MaskedSketch sDPrime = CkmAlgorithm.sketch(dPrime, params);
        long[] b = sDPrime.sums();
        assertEquals(20, a.length);
        int m = a.length / 2;
        double epsCount = epsilon * DpSketchRelease.defaultCountFraction(m);
        double sumScale = GeometricMechanism.scale(sD.addRemoveL1Units(), epsilon - epsCount);
        double countScale = GeometricMechanism.scale(1, epsCount);
        long l1 = 0;
        for (int i = 0; i < a.length; i++) {
            l1 += Math.abs(b[i] - a[i]);
        }
        double pairBound = l1 / sumScale + 1 / countScale;
        DpTester.assertCalibratedPassesAndHalvedFails(
                "batch-ckm-release",
                epsilon,
                pairBound,
                DpTester.Options.defaults().withSamples(50_000),
                false,
                (neighbour, eps, rng) -> {
                    BatchParams p = new BatchParams(1, eps, UNIT, 11, 1, 1, Double.NaN, 1);
                    DpSketchRelease.Result r =
                            CkmAlgorithm.release(neighbour ? sDPrime : sD, p, rng);
                    double l = DpTester.laplaceLoss(r.noisyCount(), 20, 21, countScale);
                    for (int i = 0; i < a.length; i++) {
                        l += DpTester.laplaceLoss(r.noisySum()[i], a[i], b[i], sumScale);
                    }
                    return l;
                });
    }
}
