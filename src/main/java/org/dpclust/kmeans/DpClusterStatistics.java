package org.dpclust.kmeans;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * The DP release of one window's {@link ClusterStatistics}: noisy per-cell counts and sums over a
 * public partition, then centroids computed from the noisy values only.
 *
 * <h2>Privacy contract</h2>
 *
 * Neighbouring windows differ by one unit (add/remove one record, or one device with at most c
 * records). Each record lies in exactly one cell of the public partition, so one unit changes
 *
 * <ul>
 *   <li>the vector of cell counts by at most c in L1 norm: noised with the two-sided geometric
 *       mechanism, L1 sensitivity c, epsilon_count;
 *   <li>the vector of fixed-point cell sums by at most c·d·2^31 units in L1 norm (each clamped,
 *       centred coordinate contributes at most half the box width, see {@link FixedPointCodec}):
 *       noised with the two-sided geometric mechanism at that sensitivity, epsilon_sum.
 * </ul>
 *
 * epsilon_count + epsilon_sum = epsilon, so the release is epsilon-DP (pure, add/remove of one
 * unit) by sequential composition of two mechanisms. Which cells are occupied is not revealed:
 * every cell, empty or not, gets noise. The partition is public (seeded points in the declared
 * box), so it does not depend on the data; parallel composition across cells is why the
 * sensitivities above do not grow with the number of cells.
 *
 * <p>Under zCDP ({@link ReleaseParams#zcdp}, {@link #noiseGaussian}) the same two vectors get
 * discrete Gaussian noise calibrated to their L2 sensitivities, c (counts, {@link
 * #countL2SensitivitySquared}) and c·2^31·√d units (sums, {@link #sumL2SensitivitySquared}), with
 * ρ_count + ρ_sum = ρ: the release is ρ-zCDP for add/remove of one unit.
 *
 * <h2>Post-processing (free)</h2>
 *
 * Cells whose noisy count is below 3× the count noise scale are ignored (mostly noise). The others
 * become weighted points (noisy mean, noisy count); weighted Lloyd runs from the previous release's
 * centroids (public) and from {@value #RESTARTS} weighted greedy k-means++ seedings ({@link
 * KMeansPlusPlus#seedGreedy}) drawn from the release's own randomness, and the lowest weighted SSE
 * on the noisy cells wins (measured on gmm1e5 at ε = 3 with 5,000 cells: relative SSE 1.11 with 4
 * plain seedings, 1.06 with 10 greedy ones). This makes the per-window Lloyd step of the classic
 * "noisy sums and counts" design robust to bad local optima while keeping it a function of released
 * values and public inputs only. Missing centroids (fewer usable cells than k) keep their previous
 * value. From d = {@link CentroidShrinkage#MIN_DIMENSION} on, each centroid that holds usable cells
 * is then shrunk toward the other cells' noisy mean by {@link CentroidShrinkage} (positive-part
 * James–Stein, with the noise variance its cells' noisy counts and the public scales give: {@link
 * #shrinkTowardMean}); it moves a centroid little where the noise is small against its distance
 * from that mean, and in d = 100 with tens of clusters at ε ≤ 1 it takes back most of the noise
 * (docs/results/utility/high-dim-family.md). With {@link Update#EXPDP_ZONE} the same noisy cells
 * are post-processed by {@link ConvergentZoneUpdate} instead (one strict convergent-zone step per
 * cluster from the previous released centroids); the noise is unchanged.
 *
 * <h2>Budget split</h2>
 *
 * Unless configured, epsilon_count = epsilon / (1 + (3d²)^{1/3}): it minimises the sum of the
 * variances that count noise and sum noise add to a centroid whose coordinates are spread over the
 * box (sum noise gives d·2(d·c/2)²/epsilon_sum², count noise 2(c/epsilon_count)²·d/12, per squared
 * record count).
 */
public final class DpClusterStatistics {
    public static final int RESTARTS = 10;
    private static final int LLOYD_ITERATIONS = 50;

    private DpClusterStatistics() {}

    /**
     * How the centroids are computed from the noisy cells (post-processing; the noise is the same):
     * {@link #MEAN} — the weighted Lloyd of the class comment; {@link #EXPDP_ZONE} — {@link
     * ConvergentZoneUpdate}.
     */
    public enum Update {
        MEAN("mean"),
        EXPDP_ZONE("expdp-zone");

        private final String wireName;

        Update(String wireName) {
            this.wireName = wireName;
        }

        /** The name used in configuration ({@code stats.update}). */
        public String wireName() {
            return wireName;
        }
    }

    /**
     * Result of one release; {@code parameters} is sorted so its Avro encoding is deterministic.
     */
    public record Release(double[][] centroids, double[] weights, Map<String, Double> parameters) {}

    /**
     * Squared L2 sensitivity of the vector of cell counts when one unit (a record, or a device)
     * contributes at most c records, for a Gaussian (zCDP) release ({@code
     * org.dpclust.privacy.GaussianMechanism}): c².
     *
     * <p>Derivation. The unit's records fall into cells with multiplicities n_1, ..., n_m, n_i >=
     * 0, Σ n_i <= c (each record lies in exactly one public cell). Adding or removing the unit
     * changes count i by n_i, so ‖Δ‖₂² = Σ n_i² <= (Σ n_i)² <= c², with equality when all c records
     * land in one cell, which a device can always arrange. (The L1 sensitivity is c too: spreading
     * the records over cells does not help in L2, it only lowers Σ n_i².)
     */
    public static BigInteger countL2SensitivitySquared(int contributionBound) {
        requirePositive(contributionBound, "contributionBound");
        return BigInteger.valueOf(contributionBound).pow(2);
    }

    /**
     * Squared L2 sensitivity, in fixed-point units², of the vector of centred fixed-point cell sums
     * (all cells, d coordinates each) when one unit contributes at most c records: c²·d·2^62, i.e.
     * Δ₂ = c·2^31·√d units (against Δ₁ = c·d·2^31 for the geometric mechanism).
     *
     * <p>Derivation. Every encoded coordinate lies in [-H, H], H = {@link
     * FixedPointCodec#HALF_RANGE} = 2^31 ({@link FixedPointCodec}: clamped, centred, rounded per
     * record). With multiplicities n_i as for the counts, cell i's sum changes by the sum of n_i
     * record vectors, each coordinate of which changes by at most n_i·H in absolute value, so
     * ‖Δ_i‖₂² <= d·n_i²·H². Summing over the cells, ‖Δ‖₂² <= d·H²·Σ n_i² <= d·H²·c² (the same Σ
     * n_i² <= c² as for the counts). The bound is attained by c records at one corner of the box in
     * one cell, so it is the sensitivity, not just an upper bound. Spreading a device's records
     * over cells can only lower it.
     */
    public static BigInteger sumL2SensitivitySquared(int dimension, int contributionBound) {
        requirePositive(dimension, "dimension");
        return countL2SensitivitySquared(contributionBound)
                .multiply(BigInteger.valueOf(dimension))
                .multiply(BigInteger.valueOf(FixedPointCodec.HALF_RANGE).pow(2));
    }

    private static void requirePositive(int x, String name) {
        if (x < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + x);
        }
    }

    /** The derived default share of epsilon for the counts, see the class comment. */
    public static double defaultCountFraction(int dimension) {
        return 1.0 / (1.0 + Math.cbrt(3.0 * dimension * dimension));
    }

    /**
     * The public parameters of one {@link #release}, validated here so that a release built in code
     * gets the same checks as one from configuration.
     *
     * @param budget the release's budget: pure ε (geometric noise, {@link #noise}) or zCDP ρ
     *     (discrete Gaussian noise, {@link #noiseGaussian}); the mechanism is calibrated from it
     * @param countFraction share of the budget for the counts, in (0, 1), or NaN for the derived
     *     default ({@link #defaultCountFraction} under pure ε, {@link #gaussianCountFraction} under
     *     zCDP)
     * @param contributionBound c, the records one privacy unit may contribute (1 for record units)
     * @param update the post-processing of the noisy cells (the noise does not depend on it)
     */
    public record ReleaseParams(
            ReleaseBudget budget, double countFraction, int contributionBound, Update update) {
        public ReleaseParams {
            Objects.requireNonNull(budget, "budget");
            if (!Double.isNaN(countFraction) && !(countFraction > 0 && countFraction < 1)) {
                throw new IllegalArgumentException(
                        "count fraction must be in (0, 1) or NaN (default), was " + countFraction);
            }
            if (contributionBound < 1) {
                throw new IllegalArgumentException(
                        "contribution bound must be >= 1, was " + contributionBound);
            }
            Objects.requireNonNull(update, "update");
        }

        /** A pure ε-DP release (geometric noise). */
        public ReleaseParams(
                double epsilon, double countFraction, int contributionBound, Update update) {
            this(new ReleaseBudget.Pure(epsilon), countFraction, contributionBound, update);
        }

        /** A pure ε-DP release with the default post-processing, {@link Update#MEAN}. */
        public ReleaseParams(double epsilon, double countFraction, int contributionBound) {
            this(epsilon, countFraction, contributionBound, Update.MEAN);
        }

        /** A ρ-zCDP release (discrete Gaussian noise, {@link #noiseGaussian}). */
        public static ReleaseParams zcdp(
                double rho, double countFraction, int contributionBound, Update update) {
            return new ReleaseParams(
                    new ReleaseBudget.Zcdp(rho), countFraction, contributionBound, update);
        }

        /**
         * The ε of the ExpDP zone update's sampling: the release's ε when pure, √(2ρ) under zCDP (a
         * pure ε release is ε²/2-zCDP).
         */
        public double epsilon() {
            return budget.match(eps -> eps, rho -> Math.sqrt(2 * rho));
        }
    }

    /**
     * One release: the noisy cells ({@link #noise}) post-processed into k centroids by {@link
     * ReleaseParams#update()}.
     *
     * @param stats exact statistics of the window (private)
     * @param codec fixed-point codec of the stream's declared bounds
     * @param previous the previous release's centroids, or the public initial centroids (k x d)
     * @param params the release's public parameters
     * @param rng the release's randomness (keyed by the accumulator digest)
     */
    public static Release release(
            ClusterStatistics stats,
            FixedPointCodec codec,
            double[][] previous,
            ReleaseParams params,
            PrivacyRandom rng) {
        return postProcess(noisyCells(stats, codec, params, rng), codec, previous, params, rng);
    }

    /**
     * The mechanism of a release with {@code params}: {@link #noise} (pure) or {@link
     * #noiseGaussian} (zCDP). Its output is what {@code stats.publish_cells} publishes.
     */
    public static NoisyCells noisyCells(
            ClusterStatistics stats,
            FixedPointCodec codec,
            ReleaseParams params,
            PrivacyRandom rng) {
        return params.budget()
                .match(
                        eps ->
                                noise(
                                        stats,
                                        codec,
                                        eps,
                                        params.countFraction(),
                                        params.contributionBound(),
                                        rng),
                        rho ->
                                noiseGaussian(
                                        stats,
                                        codec,
                                        rho,
                                        params.countFraction(),
                                        params.contributionBound(),
                                        rng));
    }

    /** The post-processing of a release with {@code params} ({@link ReleaseParams#update()}). */
    public static Release postProcess(
            NoisyCells noisy,
            FixedPointCodec codec,
            double[][] previous,
            ReleaseParams params,
            PrivacyRandom rng) {
        return params.update() == Update.EXPDP_ZONE
                ? ConvergentZoneUpdate.apply(noisy, codec, previous, params.epsilon(), rng)
                : postProcess(noisy, codec, previous, rng);
    }

    /**
     * The mechanism's output before post-processing: noisy cell counts and fixed-point sums, and
     * their scales. For the geometric mechanism: ε's, L1 sensitivities and Laplace scales; for the
     * discrete Gaussian ({@code gaussian}): ρ's in place of ε's, the L2 sensitivities (the sums'
     * rounded up to a whole unit) and the noise standard deviations σ in place of the scales.
     */
    public record NoisyCells(
            long[] counts,
            long[] sums,
            double epsilonCount,
            double epsilonSum,
            long countSensitivity,
            long sumSensitivity,
            double countScale,
            double sumScale,
            boolean gaussian) {}

    /**
     * The share of ρ for the counts in a Gaussian release unless configured: 1/(1 + √(3d)). It
     * minimises the variance count and sum noise add to a centroid over the box (as for the pure
     * split in the class comment, with Gaussian variances): sum noise σ² = c²·d/(8ρ_sum) per
     * coordinate in box widths (Δ₂ = c·√d/2 widths), d coordinates; count noise c²/(2ρ_count) times
     * E‖x − centre‖² = d/12 widths²; minimising A/ρ_sum + B/ρ_count under ρ_sum + ρ_count = ρ gives
     * ρ_count/ρ_sum = √(B/A) = 1/√(3d).
     */
    public static double defaultGaussianCountFraction(int dimension) {
        return 1.0 / (1.0 + Math.sqrt(3.0 * dimension));
    }

    /** The counts' share of a Gaussian release's ρ: {@code configured}, or the default if NaN. */
    public static double gaussianCountFraction(double configured, int dimension) {
        return Double.isNaN(configured) ? defaultGaussianCountFraction(dimension) : configured;
    }

    /** ⌈√x⌉: an L2 sensitivity from its square, rounded up to a whole unit. */
    public static long ceilSqrt(BigInteger x) {
        BigInteger r = x.sqrt();
        return (r.pow(2).compareTo(x) < 0 ? r.add(BigInteger.ONE) : r).longValueExact();
    }

    /**
     * The ρ-zCDP mechanism: discrete Gaussian noise ({@link GaussianMechanism}) on the cell counts
     * at squared L2 sensitivity {@link #countL2SensitivitySquared} c² with ρ_count = ρ·fraction,
     * and on the centred fixed-point cell sums at {@link #sumL2SensitivitySquared} c²·d·2^62 with
     * ρ_sum = ρ − ρ_count; ρ_count + ρ_sum = ρ by zCDP composition (Bun and Steinke 2016, Lemma
     * 2.3). Every cell is noised, as in the pure mechanism.
     */
    public static NoisyCells noiseGaussian(
            ClusterStatistics stats,
            FixedPointCodec codec,
            double rho,
            double countFraction,
            int contributionBound,
            PrivacyRandom rng) {
        ReleaseBudget.requireRho(rho);
        int d = stats.dimension();
        double rhoCount = rho * gaussianCountFraction(countFraction, d);
        double rhoSum = BudgetSplit.remainder(rho, rhoCount);
        BigInteger countL2 = countL2SensitivitySquared(contributionBound);
        BigInteger sumL2 = sumL2SensitivitySquared(d, contributionBound);
        long[] noisyCounts = GaussianMechanism.addNoise(stats.counts(), countL2, rhoCount, rng);
        long[] noisySums = GaussianMechanism.addNoise(stats.sums(), sumL2, rhoSum, rng);
        return new NoisyCells(
                noisyCounts,
                noisySums,
                rhoCount,
                rhoSum,
                contributionBound,
                ceilSqrt(sumL2),
                Math.sqrt(GaussianMechanism.exactVariance(countL2, rhoCount).value()),
                Math.sqrt(GaussianMechanism.exactVariance(sumL2, rhoSum).value()),
                true);
    }

    /** The DP mechanism itself (see the class comment for its sensitivities and budget split). */
    public static NoisyCells noise(
            ClusterStatistics stats,
            FixedPointCodec codec,
            double epsilon,
            double countFraction,
            int contributionBound,
            PrivacyRandom rng) {
        ReleaseBudget.requireEpsilon(epsilon);
        double fraction =
                Double.isNaN(countFraction)
                        ? defaultCountFraction(stats.dimension())
                        : countFraction;
        double epsCount = epsilon * fraction;
        double epsSum = BudgetSplit.remainder(epsilon, epsCount);
        long countSensitivity = contributionBound;
        long sumSensitivity = codec.sumSensitivity(contributionBound);
        long[] noisyCounts =
                GeometricMechanism.addNoise(stats.counts(), countSensitivity, epsCount, rng);
        long[] noisySums = GeometricMechanism.addNoise(stats.sums(), sumSensitivity, epsSum, rng);
        return new NoisyCells(
                noisyCounts,
                noisySums,
                epsCount,
                epsSum,
                countSensitivity,
                sumSensitivity,
                GeometricMechanism.scale(countSensitivity, epsCount),
                GeometricMechanism.scale(sumSensitivity, epsSum),
                false);
    }

    /**
     * The noisy cells worth using (post-processing): indices, clamped noisy means and noisy counts
     * of the cells whose noisy count is at least 3× the count noise scale.
     */
    record UsableCells(int[] cells, double[][] locations, double[] weights) {}

    static UsableCells usableCells(NoisyCells noisy, FixedPointCodec codec) {
        int d = codec.bounds().dimension();
        double threshold = threshold(noisy);
        List<Integer> cells = new ArrayList<>();
        List<double[]> locations = new ArrayList<>();
        for (int c = 0; c < noisy.counts().length; c++) {
            double n = noisy.counts()[c];
            if (n < threshold || n <= 0) {
                continue;
            }
            double[] loc = new double[d];
            for (int j = 0; j < d; j++) {
                loc[j] = codec.decodeMean(j, noisy.sums()[c * d + j], n);
            }
            codec.bounds().clamp(loc, loc);
            cells.add(c);
            locations.add(loc);
        }
        int[] idx = cells.stream().mapToInt(Integer::intValue).toArray();
        double[] w = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            w[i] = noisy.counts()[idx[i]];
        }
        return new UsableCells(idx, locations.toArray(new double[0][]), w);
    }

    private static double threshold(NoisyCells noisy) {
        return 3.0 * noisy.countScale();
    }

    /**
     * The public parameters of a release: budget split, sensitivities, noise scales and the cells
     * used.
     */
    static Map<String, Double> parameters(NoisyCells noisy, int d, int cellsUsed) {
        Map<String, Double> params = new TreeMap<>();
        if (noisy.gaussian()) {
            params.put("rho_count", noisy.epsilonCount());
            params.put("rho_sum", noisy.epsilonSum());
            params.put("count_l2_sensitivity", (double) noisy.countSensitivity());
            params.put("count_noise_sd", noisy.countScale());
            params.put("sum_l2_sensitivity_box_units", noisy.sumSensitivity() / 0x1p32);
            params.put("sum_noise_sd_box_units", noisy.sumScale() / 0x1p32);
            params.put("cells", (double) noisy.counts().length);
            params.put("cells_used", (double) cellsUsed);
            params.put("cell_threshold", threshold(noisy));
            return params;
        }
        params.put("epsilon_count", noisy.epsilonCount());
        params.put("epsilon_sum", noisy.epsilonSum());
        params.put("count_sensitivity", (double) noisy.countSensitivity());
        params.put("count_noise_scale", noisy.countScale());
        params.put("sum_l1_sensitivity_box_units", d * noisy.countSensitivity() / 2.0);
        params.put("sum_noise_scale_box_units", noisy.sumScale() / 0x1p32);
        params.put("cells", (double) noisy.counts().length);
        params.put("cells_used", (double) cellsUsed);
        params.put("cell_threshold", threshold(noisy));
        return params;
    }

    /**
     * Post-processing: centroids from the noisy cells and public inputs only (free in privacy),
     * each then shrunk toward the cells' noisy mean ({@link #shrinkTowardMean}).
     */
    public static Release postProcess(
            NoisyCells noisy, FixedPointCodec codec, double[][] previous, PrivacyRandom rng) {
        return postProcess(noisy, codec, previous, rng, true);
    }

    /**
     * {@link #postProcess(NoisyCells, FixedPointCodec, double[][], PrivacyRandom)}, with the final
     * shrinkage only if {@code shrink} (off where the centroids define a partition rather than
     * being the answer, e.g. {@link ProjectedStatistics}' projected centres).
     */
    public static Release postProcess(
            NoisyCells noisy,
            FixedPointCodec codec,
            double[][] previous,
            PrivacyRandom rng,
            boolean shrink) {
        int k = previous.length;
        // ---- post-processing: only noisy values and public inputs below this line ----
        UsableCells usable = usableCells(noisy, codec);
        double[][] pts = usable.locations();
        double[] w = usable.weights();
        double[][] centroids;
        if (pts.length <= k) {
            centroids = new double[k][];
            for (int i = 0; i < k; i++) {
                centroids[i] = i < pts.length ? pts[i].clone() : previous[i].clone();
            }
        } else {
            LloydResult best = Lloyd.runWeighted(pts, w, copy(previous), LLOYD_ITERATIONS);
            SplittableRandom seeds =
                    new SplittableRandom(
                            rng.nextLong()); // post-processing randomness, keyed by the release
            int d = codec.bounds().dimension();
            double[] flat = Lloyd.flatten(pts, d);
            for (int r = 0; r < RESTARTS; r++) {
                double[][] init = unflatten(KMeansPlusPlus.seedGreedy(flat, d, w, k, seeds), k, d);
                LloydResult cand = Lloyd.runWeighted(pts, w, init, LLOYD_ITERATIONS);
                if (cand.sse() < best.sse()) {
                    best = cand;
                }
            }
            centroids = best.centroids();
        }
        double[] centroidWeights = new double[k];
        int[] owner = new int[pts.length];
        PublicPointSet centres = new PublicPointSet(centroids);
        for (int p = 0; p < pts.length; p++) {
            owner[p] = centres.nearest(pts[p]);
            centroidWeights[owner[p]] += w[p];
        }
        if (shrink) {
            shrinkTowardMean(centroids, centroidWeights, owner, pts, w, noisy, codec);
        }
        return new Release(
                centroids,
                centroidWeights,
                parameters(noisy, codec.bounds().dimension(), pts.length));
    }

    /**
     * Moves each centroid that holds noisy cells toward the other cells' noisy mean by {@link
     * CentroidShrinkage} (post-processing: released counts and sums, public scales). Centroid i,
     * the weighted mean of its m_i cells' noisy means with total noisy count W_i, carries per
     * unit-box coordinate the noise variance v_i = m_i·(V_sum + V_count·‖c_i − mid‖²/d)/W_i²: V_sum
     * the variance of one cell's sum noise in box widths ({@link GeometricMechanism#variance} of
     * the scale, or σ² for the discrete Gaussian), V_count that of one cell's count noise (its
     * first-order effect on a mean at c_i, mid the box's centre). The target leaves centroid i's
     * own cells out (the noisy-count-weighted mean of the others' noisy means), so its noise is
     * independent of c_i's; a centroid that holds every usable cell is left alone. Clamping the
     * cells' means and the noise of W_i are ignored.
     *
     * @param weights W_i, the noisy counts of the cells nearest each centroid
     * @param owner the centroid each usable cell (of {@code pts}, weights {@code w}) is nearest to
     */
    static void shrinkTowardMean(
            double[][] centroids,
            double[] weights,
            int[] owner,
            double[][] pts,
            double[] w,
            NoisyCells noisy,
            FixedPointCodec codec) {
        int d = codec.bounds().dimension();
        int k = centroids.length;
        if (!CentroidShrinkage.applies(d)) {
            return; // releases below MIN_DIMENSION are unchanged
        }
        double total = 0;
        double[] all = new double[d];
        int[] cells = new int[k];
        double[][] own = new double[k][d];
        for (int p = 0; p < pts.length; p++) {
            int i = owner[p];
            total += w[p];
            cells[i]++;
            for (int j = 0; j < d; j++) {
                all[j] += w[p] * pts[p][j];
                own[i][j] += w[p] * pts[p][j];
            }
        }
        double varSum =
                noisy.gaussian()
                        ? square(noisy.sumScale() / 0x1p32)
                        : GeometricMechanism.variance(noisy.sumScale()) / 0x1p64;
        double varCount =
                noisy.gaussian()
                        ? square(noisy.countScale())
                        : GeometricMechanism.variance(noisy.countScale());
        double[] target = new double[d];
        for (int i = 0; i < k; i++) {
            double others = total - weights[i];
            if (cells[i] == 0 || !(weights[i] > 0) || !(others > 0)) {
                continue; // a public centroid (no cell of its own), or nothing to shrink toward
            }
            double off2 = 0;
            for (int j = 0; j < d; j++) {
                target[j] = (all[j] - own[i][j]) / others;
                double z = (centroids[i][j] - codec.bounds().mid(j)) / codec.bounds().width(j);
                off2 += z * z;
            }
            double v = cells[i] * (varSum + varCount * off2 / d) / square(weights[i]);
            centroids[i] = CentroidShrinkage.shrink(centroids[i], target, v, codec.bounds());
        }
    }

    private static double square(double x) {
        return x * x;
    }

    private static double[][] unflatten(double[] flat, int k, int d) {
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            System.arraycopy(flat, i * d, c[i], 0, d);
        }
        return c;
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
