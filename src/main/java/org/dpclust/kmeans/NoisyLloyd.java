package org.dpclust.kmeans;

import java.util.Arrays;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Lu &amp; Shen's "noisy sums and counts" Lloyd baselines (docs/algorithms.md#dplloyd), each with
 * its own paper's budget rule, all iterating {@link PartitionRelease} from given initial centroids:
 *
 * <ul>
 *   <li>{@link #dplloyd} — BLUM/SuLQ in the DPLloyd convention: T = {@value #DPLLOYD_ITERATIONS}
 *       iterations, ε/T each, split in equal halves between count and sum;
 *   <li>{@link #dwork} — Dwork (CACM 2011): iteration i spends ε/2^i (i = 1..T), halves; Σ &lt; ε
 *       for any T;
 *   <li>{@link #su} — Su et al. (CODASPY 2016): T = int(max(min(ε/ε_m, 7), 2)) with ε_m = √(500
 *       k³/N² · (d + ∛(4dρ²))³), ρ = 0.225, ε/T per iteration split AS STATED, ε_count : ε_dim =
 *       ∛(4dρ²) : 1 with ε_count + d·ε_dim = ε/T. (IBM diffprivlib @0a7292d returns the two values
 *       of its {@code _split_epsilon} swapped; this class does not copy that.)
 * </ul>
 *
 * <p><b>Privacy (label {@code dp} when run from public initial centroids on points clamped to
 * declared bounds).</b> Private: the points; neighbouring relation: add/remove one record; each
 * iteration is ε_iteration-DP by {@link PartitionRelease} (count sensitivity 1, sum sensitivity
 * width_j/2 per dimension, parallel composition over clusters, partition by the previously released
 * centroids), and the schedule's ε_iteration sum to at most its total (sequential composition).
 * SU's T depends on N: {@link #su} takes N as given, which is what the paper and diffprivlib do (N
 * exact: a leak, so only for the paper-form runs); {@link #suWithNoisySize} spends {@value
 * #SU_SIZE_FRACTION} of ε on a geometric-noised N (sensitivity 1) and the rest on the iterations,
 * which is the {@code dp} variant. The schedules are public functions of ε, k, d and (noisy) N.
 * Paper-form runs (initial centroids drawn from the data, budget given by Alg. 1's claimed total)
 * are labelled {@code paper-claimed} by their callers.
 */
public final class NoisyLloyd {
    public static final int DPLLOYD_ITERATIONS = 5;
    public static final int DWORK_ITERATIONS = 5;
    public static final double SU_RHO = 0.225;
    public static final double SU_SIZE_FRACTION = 0.05;

    private NoisyLloyd() {}

    /**
     * A public budget schedule.
     *
     * @param epsilons ε of each iteration (their sum is the schedule's spend)
     * @param countFraction share of each iteration's ε spent on the counts
     * @param noisySize the released noisy N the schedule was derived from ({@link
     *     #suWithNoisySize}), or -1 when none was released
     */
    public record Schedule(double[] epsilons, double countFraction, long noisySize) {
        /** A schedule that released no size. */
        public Schedule(double[] epsilons, double countFraction) {
            this(epsilons, countFraction, -1);
        }

        /** Σ ε over the iterations. */
        public double total() {
            double s = 0;
            for (double e : epsilons) {
                s += e;
            }
            return s;
        }
    }

    /** DPLloyd: T = 5, ε/T per iteration, halves. */
    public static Schedule dplloyd(double epsilon) {
        double[] e = new double[DPLLOYD_ITERATIONS];
        Arrays.fill(e, BudgetSplit.equalShare(epsilon, DPLLOYD_ITERATIONS));
        return new Schedule(e, 0.5);
    }

    /**
     * DWORK: ε/2^i for i = 1..{@value #DWORK_ITERATIONS}, halves (the remaining ε/2^T is unspent).
     */
    public static Schedule dwork(double epsilon) {
        double[] e = new double[DWORK_ITERATIONS];
        for (int i = 0; i < e.length; i++) {
            e[i] = epsilon / Math.pow(2, i + 1);
        }
        return new Schedule(e, 0.5);
    }

    /** ∛(4dρ²): Su et al.'s count-to-dimension ratio ε_count/ε_dim. */
    public static double suRatio(int d) {
        return Math.cbrt(4.0 * d * SU_RHO * SU_RHO);
    }

    /**
     * The count fraction of Su's split as stated: ε_count/(ε_count + d·ε_dim) = ratio/(ratio + d).
     */
    public static double suCountFraction(int d) {
        return suRatio(d) / (suRatio(d) + d);
    }

    /** Su et al.'s T = int(max(min(ε/ε_m, 7), 2)). */
    public static int suIterations(double epsilon, double n, int k, int d) {
        double epsM = Math.sqrt(500.0 * k * k * k / (n * n) * Math.pow(d + suRatio(d), 3));
        return (int) Math.max(Math.min(epsilon / epsM, 7), 2);
    }

    /** SU with the data size N taken as given (the paper's form). */
    public static Schedule su(double epsilon, double n, int k, int d) {
        int t = suIterations(epsilon, n, k, d);
        double[] e = new double[t];
        Arrays.fill(e, BudgetSplit.equalShare(epsilon, t));
        return new Schedule(e, suCountFraction(d));
    }

    /**
     * SU's {@code dp} variant: N released with two-sided geometric noise (sensitivity 1, ε·{@value
     * #SU_SIZE_FRACTION}), clipped to ≥ 1, then {@link #su} with the remaining ε.
     */
    public static Schedule suWithNoisySize(double epsilon, int n, int k, int d, PrivacyRandom rng) {
        double epsSize = epsilon * SU_SIZE_FRACTION;
        long noisyN = noisySize(n, epsSize, rng);
        Schedule s = su(BudgetSplit.remainder(epsilon, epsSize), noisyN, k, d);
        return new Schedule(s.epsilons(), s.countFraction(), noisyN);
    }

    /**
     * N released with two-sided geometric noise (add/remove: sensitivity 1) at {@code epsilon},
     * clipped to ≥ 1: the public size the dp variants of SU, GUPT and PrivGene derive their
     * n-dependent parameters from.
     */
    public static long noisySize(int n, double epsilon, PrivacyRandom rng) {
        return Math.max(1, GeometricMechanism.addNoise(n, 1, epsilon, rng));
    }

    /**
     * Runs the schedule from {@code init} (k×d; public for {@code dp}); returns the last released
     * step.
     */
    public static PartitionRelease.Step run(
            double[][] points,
            double[][] init,
            DomainBounds bounds,
            Schedule schedule,
            PrivacyRandom rng) {
        return run(points, init, bounds, schedule, rng, (centroids, cells) -> {});
    }

    /**
     * {@link #run}, handing every iteration's mechanism output (the noisy cells of the partition by
     * {@code centroids}, the previous release) to {@code transcript}: the whole sequence of
     * releases the composition argument covers, for the statistical tests.
     */
    static PartitionRelease.Step run(
            double[][] points,
            double[][] init,
            DomainBounds bounds,
            Schedule schedule,
            PrivacyRandom rng,
            java.util.function.BiConsumer<double[][], DpClusterStatistics.NoisyCells> transcript) {
        FixedPointCodec codec = new FixedPointCodec(bounds);
        PartitionRelease.Step step =
                new PartitionRelease.Step(ExpDpKMeans.copy(init), new double[init.length]);
        for (double e : schedule.epsilons()) {
            DpClusterStatistics.NoisyCells cells =
                    PartitionRelease.release(
                            points, step.means(), codec, e, schedule.countFraction(), rng);
            transcript.accept(step.means(), cells);
            step = PartitionRelease.means(cells, step.means(), codec);
        }
        return step;
    }
}
