package org.dpclust.kmeans;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.ExponentialMechanism;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * PrivGene (Zhang, Xiao, Yang, Zhang, Winslett 2013) for k-means, as docs/algorithms.md#privgene
 * restates it (after schellekensv/pycle {@code PrivGene_kmeans}): a genetic algorithm over
 * candidate centroid sets whose only access to the data is the selection of parents by the
 * exponential mechanism.
 *
 * <p><b>Algorithm.</b> A population of {@value #POPULATION} candidate sets (k×d, all in the box):
 * the given initial centroids and {@value #POPULATION} − 1 sets drawn uniformly in the box from the
 * public seed. r generations, r = max(2, ⌊c·n·ε/m′⌋) with c = {@value #C} and m′ = {@value
 * #PARENTS}. In generations 1..r−1, m′ parents are selected one after the other without
 * replacement, each by {@link ExponentialMechanism} over the remaining candidates with ε/(r·m′);
 * the next population is the parents and {@value #POPULATION} − m′ children, each the crossover of
 * two parents (a copy of one with a random number of its centroids taken from the other) and
 * mutated (one centroid moved by Gaussian noise of SD {@value #MUTATION_SD}·width per dimension,
 * decaying by the factor {@value #MUTATION_DECAY} per generation, clamped into the box). Generation
 * r selects ONE candidate with ε/r: the output. The sources say "the last generation selects 1";
 * giving that single selection the generation's whole ε/r (not ε/(r·m′)) is a [RECON] that spends
 * the budget the schedule reserves for it. Crossover, mutation and the initial population use a
 * public {@link SplittableRandom} from the seed: they act on already selected (released)
 * candidates, so they are post-processing, not privacy noise.
 *
 * <p><b>Utility and its sensitivity.</b> u(D, C) = −SSE(D, C) = −Σ_{x∈D} min_i ‖x − c_i‖², with the
 * points clamped into the declared box and every candidate inside it. Adding or removing one record
 * x changes u by exactly min_i ‖x − c_i‖², which is at most the squared diameter of the box, Σ_j
 * width_j², and equals it for x at a corner and every c_i at the opposite one. So Δu = Σ_j width_j²
 * ({@link #sensitivity}); each selection samples ∝ exp(ε_sel·u/(2Δu)) and is ε_sel-DP.
 *
 * <p><b>Exact arithmetic ({@link #utilityUnits}).</b> The exponential mechanism's derivation needs
 * |u(D) − u(D′)| ≤ Δu for the utilities it is given, but a floating-point SSE over n records
 * carries an accumulated rounding error of order n·2^−53·SSE, which for large n exceeds the one
 * grid unit g = 2^(⌊log2 Δu⌋ − 20) of slack {@link ExponentialMechanism} keeps for rounding. So
 * each record's term t_x = min_i ‖x − c_i‖² (in floating point) is rounded to the mechanism's grid,
 * q_x = round(t_x/g), and the utility is U = −Σ_x q_x summed as longs: exact, so independent of
 * order, and adding or removing x changes U by exactly q_x. Bound: x and every c_i are in the box,
 * so |x_j − c_j| ≤ width_j exactly and, rounding being monotone, the floating-point term computed
 * coordinate by coordinate in the same order as {@link #sensitivity} is ≤ the floating-point Δu;
 * hence 0 ≤ q_x ≤ round(Δu/g) ≤ ⌈Δu/g⌉ < Δ̃ = ⌈Δu/g⌉ + 1, the integer sensitivity (Δu plus one grid
 * unit) that {@link ExponentialMechanism#selectUnits} is calibrated to. Every selection is
 * therefore exactly ε_sel-DP however large n is.
 *
 * <p><b>Budget.</b> (r − 1)·m′·ε/(r·m′) + ε/r = ε ({@link Schedule#total}); sequential composition.
 *
 * <h2>Forms</h2>
 *
 * {@link #strict} — label {@link Guarantee#DP}: r is computed from N released with two-sided
 * geometric noise (sensitivity 1, {@value NoisyLloyd#SU_SIZE_FRACTION} of ε) and the rest of ε is
 * scheduled as above; public initial centroids; ε-DP under add/remove of one record. {@link #paper}
 * — label {@link Guarantee#PAPER_CLAIMED}: r from the exact N (which it therefore reveals), all of
 * ε on the selections, initial centroids as the caller gives them (records of the data in Lu &amp;
 * Shen's experiments).
 */
public final class PrivGeneKMeans {
    public static final int POPULATION = 200;
    public static final int PARENTS = 10;
    public static final double C = 1.25e-3;
    public static final double MUTATION_SD = 0.1;
    public static final double MUTATION_DECAY = 0.95;

    private PrivGeneKMeans() {}

    /**
     * The public budget schedule.
     *
     * @param generations r
     * @param selectionEpsilon ε of each of the m′ parent selections of generations 1..r−1
     * @param finalEpsilon ε of the single selection of generation r
     */
    public record Schedule(int generations, double selectionEpsilon, double finalEpsilon) {
        /** (r − 1)·m′·ε_sel + ε_final. */
        public double total() {
            return (generations - 1) * PARENTS * selectionEpsilon + finalEpsilon;
        }
    }

    /** Outcome of a run: the output, the schedule, ε spent in total and the label. */
    public record Result(
            double[][] centroids, Schedule schedule, double epsilon, Guarantee guarantee) {}

    /** r = max(2, ⌊c·n·ε/m′⌋). */
    public static int generations(double n, double epsilon) {
        return (int) Math.max(2, Math.floor(C * n * epsilon / PARENTS));
    }

    /** The schedule of ε for n records (see the class comment). */
    public static Schedule schedule(double n, double epsilon) {
        int r = generations(n, epsilon);
        double perGeneration = BudgetSplit.equalShare(epsilon, r);
        return new Schedule(r, BudgetSplit.equalShare(perGeneration, PARENTS), perGeneration);
    }

    /** Δu = Σ_j width_j², the squared diameter of the box (derived in the class comment). */
    public static double sensitivity(DomainBounds bounds) {
        double s = 0;
        for (int j = 0; j < bounds.dimension(); j++) {
            s += bounds.width(j) * bounds.width(j);
        }
        return s;
    }

    /**
     * u(D, C) = −SSE of the points against the candidate, in floating point: for reports and tests;
     * the mechanism uses the exact {@link #utilityUnits}.
     */
    public static double utility(double[][] points, double[][] candidate) {
        PublicPointSet set = new PublicPointSet(candidate);
        double sse = 0;
        for (double[] x : points) {
            sse += term(x, candidate[set.nearest(x)]);
        }
        return -sse;
    }

    /**
     * The utility the mechanism sees, in grid units g = 2^{@code gridExponent}: U = −Σ_x
     * round(t_x/g) summed exactly as longs (see the class comment; points and candidate in the
     * box).
     */
    public static long utilityUnits(double[][] points, double[][] candidate, int gridExponent) {
        PublicPointSet set = new PublicPointSet(candidate);
        long units = 0;
        for (double[] x : points) {
            units += Math.round(Math.scalb(term(x, candidate[set.nearest(x)]), -gridExponent));
        }
        return -units;
    }

    /** ‖x − c‖², summed coordinate by coordinate in the order {@link #sensitivity} uses. */
    private static double term(double[] x, double[] c) {
        double s = 0;
        for (int j = 0; j < x.length; j++) {
            double t = x[j] - c[j];
            s += t * t;
        }
        return s;
    }

    /**
     * Strict form: ε-DP under add/remove of one record, bounds declared, {@code publicInit} public.
     */
    public static Result strict(
            double[][] points,
            double[][] publicInit,
            DomainBounds bounds,
            double epsilon,
            long publicSeed,
            PrivacyRandom rng) {
        double epsSize = epsilon * NoisyLloyd.SU_SIZE_FRACTION;
        Schedule s =
                schedule(
                        NoisyLloyd.noisySize(points.length, epsSize, rng),
                        BudgetSplit.remainder(epsilon, epsSize));
        return new Result(
                run(GuptKMeans.clampedCopy(points, bounds), publicInit, bounds, s, publicSeed, rng),
                s,
                epsSize + s.total(),
                Guarantee.DP);
    }

    /**
     * Paper form: r from the exact N, all of ε on the selections; points taken to lie in {@code
     * bounds}.
     */
    public static Result paper(
            double[][] points,
            double[][] init,
            DomainBounds bounds,
            double epsilon,
            long publicSeed,
            PrivacyRandom rng) {
        Schedule s = schedule(points.length, epsilon);
        return new Result(
                run(points, init, bounds, s, publicSeed, rng),
                s,
                s.total(),
                Guarantee.PAPER_CLAIMED);
    }

    /**
     * The genetic algorithm with the given schedule (see the class comment); returns the selected
     * candidate.
     */
    public static double[][] run(
            double[][] points,
            double[][] init,
            DomainBounds bounds,
            Schedule schedule,
            long publicSeed,
            PrivacyRandom rng) {
        int k = init.length;
        int d = bounds.dimension();
        double delta = sensitivity(bounds);
        int grid = ExponentialMechanism.gridExponent(delta);
        SplittableRandom pub =
                new SplittableRandom(publicSeed); // public: population, crossover, mutation
        List<double[][]> population = new ArrayList<>();
        double[][] first = ExpDpKMeans.copy(init);
        for (double[] c : first) {
            bounds.clamp(
                    c,
                    c); // every candidate in the box: the utility's sensitivity argument needs it
        }
        population.add(first);
        while (population.size() < POPULATION) {
            double[][] c = new double[k][d];
            for (double[] ci : c) {
                for (int j = 0; j < d; j++) {
                    ci[j] = bounds.lower(j) + pub.nextDouble() * bounds.width(j);
                }
            }
            population.add(c);
        }
        double sd = MUTATION_SD;
        for (int g = 1; g < schedule.generations(); g++) {
            long[] all =
                    population.stream().mapToLong(c -> utilityUnits(points, c, grid)).toArray();
            List<Integer> left = new ArrayList<>();
            for (int i = 0; i < all.length; i++) {
                left.add(i);
            }
            List<double[][]> parents = new ArrayList<>();
            for (int p = 0; p < PARENTS; p++) {
                long[] u = left.stream().mapToLong(i -> all[i]).toArray();
                int pick =
                        ExponentialMechanism.selectUnits(
                                u, delta, schedule.selectionEpsilon(), rng);
                parents.add(population.get(left.remove(pick)));
            }
            // ---- post-processing of the selected parents (public randomness) ----
            population = new ArrayList<>(parents);
            while (population.size() < POPULATION) {
                double[][] child = ExpDpKMeans.copy(parents.get(pub.nextInt(PARENTS)));
                double[][] other = parents.get(pub.nextInt(PARENTS));
                int swaps = pub.nextInt(k + 1);
                for (int s = 0; s < swaps; s++) {
                    int i = pub.nextInt(k);
                    child[i] = other[i].clone();
                }
                // mutation: public randomness on already-selected candidates, not privacy noise
                double[] moved = child[pub.nextInt(k)];
                for (int j = 0; j < d; j++) {
                    moved[j] += sd * bounds.width(j) * pub.nextGaussian();
                }
                bounds.clamp(moved, moved);
                population.add(child);
            }
            sd *= MUTATION_DECAY;
        }
        return ExpDpKMeans.copy(
                population.get(select(points, population, bounds, schedule.finalEpsilon(), rng)));
    }

    /**
     * One ε-DP selection of a candidate (all in the box) by the exponential mechanism on the exact
     * utility {@link #utilityUnits} with sensitivity {@link #sensitivity}: generation r's
     * selection, and the building block of the parent selections.
     */
    static int select(
            double[][] points,
            List<double[][]> candidates,
            DomainBounds bounds,
            double epsilon,
            PrivacyRandom rng) {
        double delta = sensitivity(bounds);
        int grid = ExponentialMechanism.gridExponent(delta);
        long[] u = candidates.stream().mapToLong(c -> utilityUnits(points, c, grid)).toArray();
        return ExponentialMechanism.selectUnits(u, delta, epsilon, rng);
    }
}
