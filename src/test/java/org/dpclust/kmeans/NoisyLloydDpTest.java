package org.dpclust.kmeans;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP tests of the full "noisy sums and counts" schedules (tier {@code dp}): DPLloyd (T
 * = 5, ε/T), DWORK (ε/2^i) and SU in its {@code dp} form with the noisy N (the schedule's T is
 * derived from N released with ε/20), each run through {@link NoisyLloyd#run} — the composition
 * loop the batch baselines use — from public initial centroids.
 *
 * <p>Output and statistic: the transcript of every iteration's noisy cells (what the composition
 * argument covers; the released means are post-processing of it) plus, for SU, the noisy N. The
 * statistic is its privacy-loss variable: for each iteration t, given the centroids of the previous
 * release (public, from the transcript), the record D' adds lies in one cell, whose count moves by
 * 1 and whose centred sum by 2^31 per coordinate; the loss sums the log-density ratios of those
 * coordinates at the CALIBRATED schedule's scales (computed from ε and, for SU, the observed N̂).
 * Calibrated, it lies in [−ε_total, ε_total]; with halved noise its distribution doubles.
 *
 * <p>Pair and parameters: d = 1 (each iteration's loss sits on two coordinates, so the sum over the
 * iterations reaches its bound with visible probability; with many coordinates per iteration the
 * loss concentrates and no histogram test at tolerance 0.01 can see halved noise), D' = D + a
 * record at the box's upper corner (the largest centred-sum change). DPLloyd spreads ε over 10
 * equal coordinates, so it is tested at ε = 3 where halved noise still leaves a hockey-stick
 * divergence of about 0.09 (simulated; at ε = 1 it is 0.02, below what the harness resolves); DWORK
 * (dominated by its first iterations) at ε = 2; SU at ε = 2 with D = ∅, for which N̂ is small and T
 * = 2.
 */
@Tag("dp")
class NoisyLloydDpTest {
    private static final DomainBounds UNIT = new DomainBounds(new double[] {0}, new double[] {1});
    private static final FixedPointCodec CODEC = new FixedPointCodec(UNIT);
    private static final double[][] INIT = {{0.25}, {0.75}};
    private static final double[] CORNER = {1.0};
    private static final double[][] D = {{0.1}, {0.2}, {0.35}, {0.8}, {0.9}};
    private static final DpTester.Options O = DpTester.Options.defaults().withSamples(50_000);

    /** The per-iteration noisy cells with the centroids they were partitioned by. */
    private record Step(double[][] centroids, DpClusterStatistics.NoisyCells cells) {}

    private static List<Step> transcript(
            double[][] points, NoisyLloyd.Schedule s, org.dpclust.privacy.PrivacyRandom rng) {
        List<Step> out = new ArrayList<>();
        NoisyLloyd.run(points, INIT, UNIT, s, rng, (c, cells) -> out.add(new Step(c, cells)));
        return out;
    }

    private static double[][] withCorner(double[][] d) {
        double[][] p = java.util.Arrays.copyOf(d, d.length + 1);
        p[d.length] = CORNER;
        return p;
    }

    /**
     * The loss of the transcript under the nominal schedule {@code nominal}: Σ_t the log-density
     * ratios, D versus D' = D + corner, of the corner's cell's count and sum.
     */
    private static double loss(List<Step> steps, double[][] d, NoisyLloyd.Schedule nominal) {
        long[] cornerUnits = new long[1];
        CODEC.encode(CORNER, cornerUnits);
        double l = 0;
        for (int t = 0; t < Math.min(steps.size(), nominal.epsilons().length); t++) {
            Step s = steps.get(t);
            PublicPointSet cells = new PublicPointSet(s.centroids());
            ClusterStatistics exact = SnapshotStatistics.accumulate(d, CODEC, cells);
            int c = cells.nearest(CORNER);
            double e = nominal.epsilons()[t];
            double f = nominal.countFraction();
            double countScale = GeometricMechanism.scale(1, e * f);
            double sumScale = GeometricMechanism.scale(CODEC.sumSensitivity(1), e * (1 - f));
            long n = exact.counts()[c];
            long sum = exact.sums()[c];
            l += DpTester.laplaceLoss(s.cells().counts()[c], n, n + 1, countScale);
            l += DpTester.laplaceLoss(s.cells().sums()[c], sum, sum + cornerUnits[0], sumScale);
        }
        return l;
    }

    private static void fixedSchedule(
            String name,
            double epsilon,
            java.util.function.DoubleFunction<NoisyLloyd.Schedule> rule) {
        NoisyLloyd.Schedule nominal = rule.apply(epsilon);
        double[][] dPrime = withCorner(D);
        DpTester.assertCalibratedPassesAndHalvedFails(
                name,
                epsilon,
                nominal.total(),
                O,
                false,
                (neighbour, eps, rng) ->
                        loss(transcript(neighbour ? dPrime : D, rule.apply(eps), rng), D, nominal));
    }

    @Test
    void dplloydPassesCalibratedAndFailsWithHalvedNoise() {
        fixedSchedule("dplloyd-schedule", 3.0, NoisyLloyd::dplloyd);
    }

    @Test
    void dworkPassesCalibratedAndFailsWithHalvedNoise() {
        fixedSchedule("dwork-schedule", 2.0, NoisyLloyd::dwork);
    }

    @Test
    void suWithNoisySizePassesCalibratedAndFailsWithHalvedNoise() {
        double epsilon = 2.0;
        double epsSize = epsilon * NoisyLloyd.SU_SIZE_FRACTION;
        double sizeScale = GeometricMechanism.scale(1, epsSize);
        double[][] empty = {};
        double[][] one = withCorner(empty);
        DpTester.assertCalibratedPassesAndHalvedFails(
                "su-noisy-n-schedule",
                epsilon,
                epsilon,
                O,
                false,
                (neighbour, eps, rng) -> {
                    double[][] pts = neighbour ? one : empty;
                    NoisyLloyd.Schedule s =
                            NoisyLloyd.suWithNoisySize(eps, pts.length, INIT.length, 1, rng);
                    List<Step> steps = transcript(pts, s, rng);
                    // the nominal schedule: what the calibrated mechanism derives from this N̂
                    NoisyLloyd.Schedule nominal =
                            NoisyLloyd.su(epsilon - epsSize, s.noisySize(), INIT.length, 1);
                    return DpTester.laplaceLoss(s.noisySize(), 0, 1, sizeScale)
                            + loss(steps, empty, nominal);
                });
    }
}
