package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP tests of the ckm sketch release {@link DpSketchRelease} (tier {@code dp}), on
 * sketches with MANY noised coordinates: m = 64 features, 128 noised sums plus the count.
 *
 * <p>Statistic: the privacy-loss variable, the sum over the noised coordinates of the Laplace
 * log-density ratios at the calibrated scales (coordinates where the neighbours agree contribute
 * exactly 0). A one-coordinate histogram sees only that coordinate's share of the loss and cannot
 * notice halved noise when many coordinates are noised; the loss variable carries all of it, and
 * the noise of the coordinates where the neighbours agree does not enter it at all.
 *
 * <p>Pairs, each using the whole sensitivity on a few coordinates: every frequency is π/4 (unit-box
 * coordinates), so a record at x = 1 has phase π/4 on every feature and |cos| + |sin| = √2 — the
 * full per-feature sensitivity — on whichever r = 2 features its keyed mask picks. Add/remove: D'
 * adds that record (sums move on 2r coordinates by the whole sum sensitivity, the count by 1).
 * Replace-one (n public, no count noise): frequencies 5π/4 and the record x = 1 replaced by x′ =
 * 0.2 (phase π/4) with r = m = 1: opposite features, 2√2 — twice the add/remove sensitivity, which
 * is what replace-one is calibrated to. The dense pair of the batch release (r = m, every
 * coordinate moves) is in {@link org.dpclust.batch.CkmAlgorithmDpTest}.
 */
@Tag("dp")
class DpSketchReleaseDpTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});
    private static final int M = 64;
    private static final int R = 2;

    private static FrequencyMatrix constant(int m, double omega) {
        double[][] rows = new double[m][1];
        for (double[] row : rows) {
            row[0] = omega;
        }
        return FrequencyMatrix.of(rows);
    }

    private static MaskedSketch base() {
        MaskedSketch s = new MaskedSketch(constant(M, Math.PI / 4), UNIT, R, TestRandoms.SECRET);
        for (int i = 0; i < 20; i++) {
            s.add(new double[] {i / 20.0}, new byte[] {1, (byte) i});
        }
        return s;
    }

    private static double sumLoss(long[] o, long[] a, long[] b, double scale) {
        double l = 0;
        for (int i = 0; i < o.length; i++) {
            if (a[i] != b[i]) {
                l += DpTester.laplaceLoss(o[i], a[i], b[i], scale);
            }
        }
        return l;
    }

    @Test
    void addRemoveWithManyCoordinatesPassesCalibratedAndFailsWithHalvedNoise() {
        MaskedSketch d = base();
        MaskedSketch dPrime = base();
        dPrime.add(new double[] {1.0}, new byte[] {2, 0});
        long[] a = d.sums();
        long[] b = dPrime.sums();
        long l1 = 0;
        int moved = 0;
        for (int i = 0; i < a.length; i++) {
            l1 += Math.abs(a[i] - b[i]);
            moved += a[i] != b[i] ? 1 : 0;
        }
        assertEquals(2 * M, a.length);
        assertEquals(2 * R, moved);
        assertTrue(
                l1 >= d.addRemoveL1Units() - 2 * R, "the pair uses the whole sensitivity: " + l1);
        double epsilon = 1.0;
        double epsCount = epsilon * DpSketchRelease.defaultCountFraction(M);
        double sumScale = GeometricMechanism.scale(d.addRemoveL1Units(), epsilon - epsCount);
        double countScale = GeometricMechanism.scale(1, epsCount);
        DpTester.assertCalibratedPassesAndHalvedFails(
                "sketch-add-remove-m64",
                epsilon,
                epsilon,
                DpTester.Options.defaults().withSamples(50_000),
                false,
                (neighbour, eps, rng) -> {
                    DpSketchRelease.Result r =
                            DpSketchRelease.addRemove(
                                    neighbour ? dPrime : d, eps, Double.NaN, 1, rng);
                    return sumLoss(r.noisySum(), a, b, sumScale)
                            + DpTester.laplaceLoss(
                                    r.noisyCount(), d.count(), d.count() + 1, countScale);
                });
    }

    @Test
    void replaceOnePassesCalibratedAndFailsWithHalvedNoise() {
        FrequencyMatrix f = constant(1, 5 * Math.PI / 4);
        MaskedSketch d = new MaskedSketch(f, UNIT, 1, null);
        MaskedSketch dPrime = new MaskedSketch(f, UNIT, 1, null);
        for (int i = 0; i < 10; i++) {
            d.add(new double[] {i / 10.0}, null);
            dPrime.add(new double[] {i / 10.0}, null);
        }
        d.add(new double[] {1.0}, null);
        dPrime.add(new double[] {0.2}, null);
        long[] a = d.sums();
        long[] b = dPrime.sums();
        assertTrue(
                Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) >= 2 * d.addRemoveL1Units() - 4,
                "opposite features: twice the add/remove sensitivity");
        double epsilon = 1.0;
        double scale = GeometricMechanism.scale(2 * d.addRemoveL1Units(), epsilon);
        DpTester.assertCalibratedPassesAndHalvedFails(
                "sketch-replace-one",
                epsilon,
                epsilon,
                DpTester.Options.defaults(),
                false,
                (neighbour, eps, rng) ->
                        sumLoss(
                                DpSketchRelease.replaceOne(neighbour ? dPrime : d, 11, eps, rng)
                                        .noisySum(),
                                a,
                                b,
                                scale));
    }
}
