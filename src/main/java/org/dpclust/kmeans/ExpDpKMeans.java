package org.dpclust.kmeans;

import java.util.Arrays;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.LaplaceMechanism;
import org.dpclust.privacy.PrivacyRandom;

/**
 * Lu &amp; Shen's convergent ExpDP k-means (Algorithms 1, 2; docs/algorithms.md#expdp-k-means), in
 * two modes.
 *
 * <h2>{@link #paper} — as written, label {@link Guarantee#PAPER_CLAIMED}</h2>
 *
 * S^(0) = k records of the data (the caller samples them); then, until an assignment step changes
 * no record's cluster or the iteration cap is reached: assign every record to its nearest centroid,
 * compute each cluster's exact mean S^(t), build the cluster's {@link SamplingZone} ({@link
 * ZoneOrientation#PAST}: from S^(t−1) and S^(t); {@link ZoneOrientation#PAST_FUTURE}: also from
 * S^(t+1), the means of one extra Lloyd step from all S^(t)) and replace the centroid by the ExpDP
 * draw in the zone with ε_i^(t) = {@code epsilonStep}. An empty cluster keeps its centroid (the
 * paper does not say). Final step (line 12): exact per-cluster sums divided by Laplace-noised
 * counts (sensitivity 1, ε0), the sums being exact. The budget is accounted bottom-up as the paper
 * does (Thm 5): claimed ε = ε0 + Î·ε_step with Î the data-dependent number of iterations. <b>This
 * is not differential privacy</b>: weaknesses 1 (data-dependent range of the EM), 2 (the zone,
 * published each iteration, pins down the exact mean), 3 (q is relative to private points; Δq = 2
 * is a range, not a sensitivity), 5 (data-dependent Î and stopping time), 6 (final sums exact;
 * intermediate Ŝ published), 7 (initial centroids are records), 8 (PAST_FUTURE: cluster i's zone
 * depends on the reassignment of all data, so parallel composition fails), 9 (handled: X outside
 * the convergent zone is projected onto its border, see {@link SamplingZone}) and 10 (termination
 * is not guaranteed: hence the cap, and {@link Result#hitCap()}) apply; 4 and 11 concern the
 * paper's experiments and its Thm 3, not this code.
 *
 * <h2>{@link #strict} — label {@link Guarantee#DP}</h2>
 *
 * <b>Private:</b> the points. <b>Neighbouring relation:</b> add/remove one record; the points are
 * clamped into the declared {@code bounds} and every sensitivity comes from them. The centroids
 * start from public information ({@code publicInit}). Each iteration releases per-cluster noisy
 * counts and sums of the partition by the previous RELEASED centroids ({@link PartitionRelease}:
 * ε-DP by parallel composition over clusters); the zone's S^(t−1) is that released centroid, S^(t)
 * the released noisy mean and, for PAST_FUTURE, S^(t+1) the noisy means of a second release on the
 * partition by the released S^(t). The zone, its orientation and the draw in it are therefore
 * post-processing of released values. The run makes exactly {@code iterations} iterations (no
 * data-dependent stopping) and a final release of noisy means on the partition by the last drawn
 * centroids (the paper's final Laplace step, now on counts and sums); the budget of all of them is
 * charged up front: with m = iterations·(1 or 2) + 1 releases, each gets ε/m, and the whole run is
 * ε-DP by sequential composition. Drawn centroids are clamped into the box (post-processing).
 */
public final class ExpDpKMeans {
    private ExpDpKMeans() {}

    /**
     * Outcome of a run.
     *
     * @param centroids the released centroids (k×d)
     * @param iterations centroid-update steps made (Lloyd's convention: the final assignment that
     *     changed nothing is not counted)
     * @param hitCap whether the run stopped at the cap instead of converging (paper mode)
     * @param epsilon ε accounted: claimed bottom-up total (paper) or the total charged up front
     *     (strict)
     * @param projectedZones PAST_FUTURE zones whose X = S^(t+1) lay outside the convergent zone and
     *     was projected
     * @param guarantee {@link Guarantee#PAPER_CLAIMED} or {@link Guarantee#DP}
     * @param weights the final step's noisy counts (k)
     */
    public record Result(
            double[][] centroids,
            double[] weights,
            int iterations,
            boolean hitCap,
            double epsilon,
            int projectedZones,
            Guarantee guarantee) {}

    /**
     * Paper mode (see the class comment); {@code init} is k records drawn from the data by the
     * caller.
     */
    public static Result paper(
            double[][] points,
            double[][] init,
            ZoneOrientation orientation,
            double epsilonStep,
            double epsilonFinal,
            int cap,
            PrivacyRandom rng) {
        int k = init.length;
        double[][] c = copy(init);
        int[] assignment = assign(points, c);
        int t = 0;
        int projected = 0;
        boolean hitCap = false;
        while (true) {
            if (t >= cap) {
                hitCap = true;
                break;
            }
            double[][] means = means(points, assignment, c);
            double[][] future =
                    orientation == ZoneOrientation.PAST_FUTURE
                            ? means(points, assign(points, means), means)
                            : null;
            for (int i = 0; i < k; i++) {
                SamplingZone z =
                        future == null
                                ? SamplingZone.past(c[i], means[i], rng)
                                : SamplingZone.pastFuture(c[i], means[i], future[i], rng);
                projected += z.projected() ? 1 : 0;
                c[i] = z.sample(epsilonStep, rng);
            }
            t++;
            int[] next = assign(points, c);
            boolean changed = !Arrays.equals(next, assignment);
            assignment = next;
            if (!changed) {
                break;
            }
        }
        double[][] out = new double[k][];
        double[] counts = new double[k];
        for (int a : assignment) {
            counts[a]++;
        }
        double[][] sums = sums(points, assignment, k);
        double[] weights = new double[k];
        for (int i = 0; i < k; i++) {
            double noisy = LaplaceMechanism.addNoise(counts[i], 1.0, epsilonFinal, rng);
            weights[i] = noisy;
            out[i] = c[i].clone();
            if (noisy > 0) {
                for (int j = 0; j < out[i].length; j++) {
                    out[i][j] = sums[i][j] / noisy;
                }
            }
        }
        return new Result(
                out,
                weights,
                t,
                hitCap,
                epsilonFinal + t * epsilonStep,
                projected,
                Guarantee.PAPER_CLAIMED);
    }

    /**
     * Number of ε-shares a strict run of {@code iterations} iterations spends (see the class
     * comment).
     */
    public static int strictReleases(ZoneOrientation orientation, int iterations) {
        return iterations * (orientation == ZoneOrientation.PAST_FUTURE ? 2 : 1) + 1;
    }

    /**
     * Strict mode (see the class comment): ε-DP under add/remove of one record, bounds declared.
     */
    public static Result strict(
            double[][] points,
            double[][] publicInit,
            DomainBounds bounds,
            ZoneOrientation orientation,
            double epsilon,
            int iterations,
            PrivacyRandom rng) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, was " + iterations);
        }
        double share = BudgetSplit.equalShare(epsilon, strictReleases(orientation, iterations));
        int k = publicInit.length;
        double[][] c = copy(publicInit);
        int projected = 0;
        for (int t = 0; t < iterations; t++) {
            double[][] means =
                    PartitionRelease.noisyMeans(points, c, bounds, share, Double.NaN, rng).means();
            double[][] future =
                    orientation == ZoneOrientation.PAST_FUTURE
                            ? PartitionRelease.noisyMeans(
                                            points, means, bounds, share, Double.NaN, rng)
                                    .means()
                            : null;
            // ---- post-processing of released values: zones and draws ----
            for (int i = 0; i < k; i++) {
                SamplingZone z =
                        future == null
                                ? SamplingZone.past(c[i], means[i], rng)
                                : SamplingZone.pastFuture(c[i], means[i], future[i], rng);
                projected += z.projected() ? 1 : 0;
                c[i] = z.sample(share, rng);
                bounds.clamp(c[i], c[i]);
            }
        }
        PartitionRelease.Step last =
                PartitionRelease.noisyMeans(points, c, bounds, share, Double.NaN, rng);
        return new Result(
                last.means(), last.counts(), iterations, false, epsilon, projected, Guarantee.DP);
    }

    /** Nearest-centroid assignment (squared Euclidean, ties to the lowest index). */
    static int[] assign(double[][] points, double[][] centroids) {
        PublicPointSet set = new PublicPointSet(centroids);
        int[] a = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            a[i] = set.nearest(points[i]);
        }
        return a;
    }

    private static double[][] sums(double[][] points, int[] assignment, int k) {
        int d = points[0].length;
        double[][] s = new double[k][d];
        for (int i = 0; i < points.length; i++) {
            double[] row = s[assignment[i]];
            for (int j = 0; j < d; j++) {
                row[j] += points[i][j];
            }
        }
        return s;
    }

    /** Exact cluster means; an empty cluster keeps {@code fallback}'s centroid. */
    private static double[][] means(double[][] points, int[] assignment, double[][] fallback) {
        int k = fallback.length;
        double[][] s = sums(points, assignment, k);
        int[] n = new int[k];
        for (int a : assignment) {
            n[a]++;
        }
        for (int i = 0; i < k; i++) {
            if (n[i] == 0) {
                s[i] = fallback[i].clone();
            } else {
                for (int j = 0; j < s[i].length; j++) {
                    s[i][j] /= n[i];
                }
            }
        }
        return s;
    }

    static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
