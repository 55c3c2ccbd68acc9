package org.dpclust.sketch;

import java.math.BigInteger;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.privacy.BudgetSplit;
import org.dpclust.privacy.GaussianMechanism;
import org.dpclust.privacy.GeometricMechanism;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.ReleaseBudget;

/**
 * The DP release of one {@link MaskedSketch}: a noisy real-stacked sum of the masked features and
 * (for add/remove neighbours) a noisy count, then the normalised sketch z = noisy_sum / (α_r ·
 * divisor), an unbiased-up-to-the-count estimate of E[e^{iω_j·v}] for every j (real parts, then
 * imaginary parts).
 *
 * <h2>Privacy contract</h2>
 *
 * Private: the accumulator's fixed-point sums and count. Public: the frequencies, bounds, r, ε and
 * (for replace-one) the dataset size n. Let Δ = r·⌊√2·2^24 + 1⌋ units ({@link
 * MaskedSketch#addRemoveL1Units()}), i.e. r√2 in real units plus the rounding slack: one record's
 * masked features, whatever its mask.
 *
 * <ul>
 *   <li>{@link #addRemove add/remove one unit} (a record, or a device with at most c records): the
 *       sum changes by at most c·Δ in L1 and the count by at most c. The sum gets the two-sided
 *       geometric mechanism ({@link GeometricMechanism}) at sensitivity c·Δ with ε_sum, the count
 *       at sensitivity c with ε_count, ε_sum + ε_count = ε: pure ε-DP by sequential composition.
 *   <li>{@link #replaceOne replace one record} in a dataset of known size n: removing x and adding
 *       x′ changes the sum by at most 2Δ in L1 (x′ has its own keyed mask; where the masks overlap
 *       |cos θ′ − cos θ| + |sin θ′ − sin θ| ≤ 2√2 per feature, the same total), the count not at
 *       all. The sum gets the geometric mechanism at sensitivity 2Δ with all of ε; n is public and
 *       used as the divisor. Pure ε-DP.
 * </ul>
 *
 * Everything after the noise (division, the small-count rule, the decoder) is post-processing. The
 * noise is keyed by the caller's {@link PrivacyRandom} (HMAC of the secret and the release context
 * including the accumulator digest), so a replay of the same window reproduces the same release.
 *
 * <h2>Why not the paper's Proposition 1</h2>
 *
 * Paper 003 prints σ_ξ = 4√2·α_r·m/(√n0·ε) for noise ξ/√(α_r m n0) added to the normalised sketch
 * (1/(α_r n0 √m))·Σ b_x ⊙ e^{iΩᵀx}. Its real-stacked L1 sensitivity under replace-one is r·2√2/(√m
 * α_r n0) = 2√2√m/n0 (independent of α_r), and Laplace with per-part scale (σ_ξ/2)/√(α_r m n0)
 * meets ε only when σ_ξ = 4√2·√α_r·m/(√n0·ε); the printed α_r instead of √α_r under-noises by a
 * factor √α_r (the true guarantee is ε/√α_r), from two compensating typos in its proof
 * (docs/algorithms.md#proposition-1). This class calibrates from the derived sensitivity: its
 * replace-one noise, rescaled to the paper's normalisation, is exactly the corrected σ_ξ (checked
 * in the tests), never the printed one.
 *
 * <h2>Budget split (add/remove)</h2>
 *
 * Unless configured, ε_count/ε_sum = ρ = (4m²)^{−1/3}, i.e. ε_count = ε·ρ/(1 + ρ) (ε/160 at m =
 * 1000, where the peer toolbox gives ε/(2m + 1) = ε/2001). It minimises the expected squared error
 * of z: sum noise adds 2m·(2m/(ε_sum n))² = 8m³/(ε_sum n)², independently of r (Δ/α_r = √2 m), and
 * a count error η scales z by n/(n + η), adding about ‖z‖²·2/(ε_count n)² ≤ 2m/(ε_count n)²;
 * minimising A/ε_sum² + B/ε_count² under ε_sum + ε_count = ε gives (ε_count/ε_sum)³ = B/A =
 * 1/(4m²).
 *
 * <h2>Small or negative noisy counts</h2>
 *
 * The divisor is max(noisy count, 1): a noisy count below 1 (possible for tiny windows) would flip
 * or blow up the sketch, while any positive divisor only rescales z, which the decoder's weights
 * absorb (its weights are normalised to sum to 1). Consumers see the noisy count and its noise
 * scale and may ignore windows whose count is within a few noise scales of zero.
 */
public final class DpSketchRelease {

    private DpSketchRelease() {}

    /** Neighbouring relations; labels are the {@code neighbouring} field of releases. */
    public enum Neighbouring {
        ADD_REMOVE("add-remove"),
        REPLACE_ONE("replace-one");

        private final String label;

        Neighbouring(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One release.
     *
     * @param sketch z, real-stacked, length 2m (post-processing of noisySum and noisyCount)
     * @param noisySum the noised fixed-point sums (the mechanism's direct output)
     * @param noisyCount the noised count (add/remove) or the public n (replace-one)
     * @param divisor the count used to normalise: max(noisyCount, 1), or n
     * @param parameters what a consumer needs to interpret the noise, sorted by key
     */
    public record Result(
            double[] sketch,
            long[] noisySum,
            long noisyCount,
            double divisor,
            double epsilon,
            Neighbouring neighbouring,
            Map<String, Double> parameters) {}

    /**
     * Squared L2 change, in fixed-point units², of one masked feature's (cos, sin) integer pair by
     * one record: 2^48 + {@link MaskedSketch#featureL1Units()} + 1.
     *
     * <p>Derivation. The pair is (a, b) = (round(2^24 cos θ), round(2^24 sin θ)) with |a| <= 2^24
     * |cos θ| + 1/2 and likewise b, so a² + b² <= 2^48 (cos² + sin²) + 2^24 (|cos| + |sin|) + 1/2
     * <= 2^48 + √2·2^24 + 1/2 + 2^48·η, where η <= 2e-15 covers the floating-point error of the
     * computed feature values (2^48·η < 0.6). As a² + b² is an integer it is at most 2^48 +
     * ⌊√2·2^24 + 1.1⌋ <= 2^48 + featureL1Units() + 1 (featureL1Units() = ⌊√2·2^24⌋ + 1).
     */
    public static BigInteger featureL2UnitsSquared() {
        return BigInteger.ONE
                .shiftLeft(2 * MaskedSketch.FRACTION_BITS)
                .add(BigInteger.valueOf(MaskedSketch.featureL1Units() + 1));
    }

    /**
     * Squared L2 sensitivity of the sketch sums for add/remove of one unit with at most c records,
     * r masked features per record: c²·r·{@link #featureL2UnitsSquared()}. The count's is c².
     *
     * <p>Derivation. One record changes exactly its r masked feature pairs and leaves the others
     * alone, so its contribution vector v has ‖v‖₂² <= r·featureL2UnitsSquared() (per-pair bound
     * above). A unit's c records change the sums by v_1 + ... + v_c, and ‖Σ v_j‖₂ <= Σ ‖v_j‖₂ <=
     * c·√(r·featureL2UnitsSquared()) by the triangle inequality (attained when the records
     * coincide: identical features, the same masks when r = m), hence the square
     * c²·r·featureL2UnitsSquared(). In real units this is Δ₂ = c·√r (against Δ₁ = c·r·√2).
     */
    public static BigInteger addRemoveL2SensitivitySquared(int r, int contributionBound) {
        if (r < 1 || contributionBound < 1) {
            throw new IllegalArgumentException("r and contributionBound must be >= 1");
        }
        return BigInteger.valueOf(contributionBound)
                .pow(2)
                .multiply(BigInteger.valueOf(r))
                .multiply(featureL2UnitsSquared());
    }

    /**
     * Squared L2 sensitivity of the sketch sums for replace-one of a record: 4·r·{@link
     * #featureL2UnitsSquared()} (‖v − v′‖₂ <= ‖v‖₂ + ‖v′‖₂ <= 2√(r·featureL2UnitsSquared()); the
     * two records' masks may differ).
     */
    public static BigInteger replaceOneL2SensitivitySquared(int r) {
        return addRemoveL2SensitivitySquared(r, 2);
    }

    /**
     * ρ/(1 + ρ) with ρ = (4m²)^{−1/3}: the default share of ε for the count (see the class
     * comment).
     */
    public static double defaultCountFraction(int m) {
        double rho = Math.cbrt(1.0 / (4.0 * m * (double) m));
        return rho / (1.0 + rho);
    }

    /**
     * ε-DP release for add/remove of one unit.
     *
     * @param countFraction share of ε for the count in (0, 1), or NaN for the default
     * @param contributionBound c, records per unit (1 for record units)
     * @param rng the release's noise stream (keyed by the accumulator digest)
     */
    public static Result addRemove(
            MaskedSketch sketch,
            double epsilon,
            double countFraction,
            int contributionBound,
            PrivacyRandom rng) {
        checkEpsilon(epsilon);
        if (contributionBound < 1) {
            throw new IllegalArgumentException(
                    "contributionBound must be >= 1, got " + contributionBound);
        }
        int m = sketch.frequencies().size();
        double fraction = Double.isNaN(countFraction) ? defaultCountFraction(m) : countFraction;
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException(
                    "countFraction must be in (0, 1), got " + countFraction);
        }
        double epsCount = epsilon * fraction;
        double epsSum = BudgetSplit.remainder(epsilon, epsCount);
        long sumSensitivity =
                Math.multiplyExact(sketch.addRemoveL1Units(), (long) contributionBound);
        long[] noisySum = GeometricMechanism.addNoise(sketch.sums(), sumSensitivity, epsSum, rng);
        long noisyCount =
                GeometricMechanism.addNoise(sketch.count(), contributionBound, epsCount, rng);
        // ---- post-processing: only noisy values and public inputs below this line ----
        double divisor = Math.max(noisyCount, 1L);
        Map<String, Double> params = parameters(sketch, sumSensitivity, epsSum);
        params.put("epsilon_count", epsCount);
        params.put("count_sensitivity", (double) contributionBound);
        params.put("count_noise_scale", GeometricMechanism.scale(contributionBound, epsCount));
        return new Result(
                normalise(noisySum, sketch.alpha(), divisor),
                noisySum,
                noisyCount,
                divisor,
                epsilon,
                Neighbouring.ADD_REMOVE,
                params);
    }

    /**
     * ρ-zCDP release for add/remove of one unit: discrete Gaussian noise ({@link
     * GaussianMechanism}) on the sums at squared L2 sensitivity {@link
     * #addRemoveL2SensitivitySquared} c²·r·(2^48 + ...) with ρ_sum, and on the count at c² with
     * ρ_count = ρ·fraction, ρ_sum + ρ_count = ρ (zCDP composition, Bun and Steinke 2016, Lemma
     * 2.3); the default fraction is {@link #defaultGaussianCountFraction}. Post-processing as in
     * {@link #addRemove}.
     *
     * @param countFraction share of ρ for the count in (0, 1), or NaN for the default
     */
    public static Result addRemoveGaussian(
            MaskedSketch sketch,
            double rho,
            double countFraction,
            int contributionBound,
            PrivacyRandom rng) {
        ReleaseBudget.requireRho(rho);
        int m = sketch.frequencies().size();
        double fraction =
                Double.isNaN(countFraction) ? defaultGaussianCountFraction(m) : countFraction;
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException(
                    "countFraction must be in (0, 1), got " + countFraction);
        }
        double rhoCount = rho * fraction;
        double rhoSum = BudgetSplit.remainder(rho, rhoCount);
        BigInteger sumL2 = addRemoveL2SensitivitySquared(sketch.r(), contributionBound);
        BigInteger countL2 = BigInteger.valueOf(contributionBound).pow(2);
        long[] noisySum = GaussianMechanism.addNoise(sketch.sums(), sumL2, rhoSum, rng);
        long noisyCount =
                GaussianMechanism.addNoise(new long[] {sketch.count()}, countL2, rhoCount, rng)[0];
        // ---- post-processing: only noisy values and public inputs below this line ----
        double divisor = Math.max(noisyCount, 1L);
        Map<String, Double> params = new TreeMap<>();
        params.put("rho_sum", rhoSum);
        params.put("rho_count", rhoCount);
        params.put("sum_l2_sensitivity", Math.sqrt(sumL2.doubleValue()) / MaskedSketch.SCALE);
        params.put(
                "sum_noise_sd",
                Math.sqrt(GaussianMechanism.exactVariance(sumL2, rhoSum).value())
                        / MaskedSketch.SCALE);
        params.put("count_l2_sensitivity", (double) contributionBound);
        params.put(
                "count_noise_sd",
                Math.sqrt(GaussianMechanism.exactVariance(countL2, rhoCount).value()));
        params.put("alpha_r", sketch.alpha());
        return new Result(
                normalise(noisySum, sketch.alpha(), divisor),
                noisySum,
                noisyCount,
                divisor,
                Math.sqrt(2 * rho),
                Neighbouring.ADD_REMOVE,
                params);
    }

    /**
     * The default share of ρ for the count of a Gaussian release: q/(1 + q) with q = (4m²)^{−1/2} =
     * 1/(2m). Derivation as for {@link #defaultCountFraction} (class comment), with variances
     * 2m·(Δ₂²/(2ρ_sum))/(α n)² = A/ρ_sum for the sums and about 2m·c²/(2ρ_count n²) = B/ρ_count for
     * the count: minimising A/ρ_sum + B/ρ_count under ρ_sum + ρ_count = ρ gives ρ_count/ρ_sum =
     * √(B/A), and B/A = 1/(4m²) as in the pure case.
     */
    public static double defaultGaussianCountFraction(int m) {
        double q = 1.0 / (2.0 * m);
        return q / (1.0 + q);
    }

    /**
     * ε-DP release for replace-one neighbours on a dataset of public size n (batch snapshots of a
     * fixed size). The count is not noised; {@code n} must equal the accumulator's count.
     */
    public static Result replaceOne(
            MaskedSketch sketch, long n, double epsilon, PrivacyRandom rng) {
        checkEpsilon(epsilon);
        if (n < 1 || sketch.count() != n) {
            throw new IllegalArgumentException(
                    "replace-one needs the public dataset size n >= 1 equal to the "
                            + "accumulator's count");
        }
        long sumSensitivity = Math.multiplyExact(2L, sketch.addRemoveL1Units());
        long[] noisySum = GeometricMechanism.addNoise(sketch.sums(), sumSensitivity, epsilon, rng);
        Map<String, Double> params = parameters(sketch, sumSensitivity, epsilon);
        return new Result(
                normalise(noisySum, sketch.alpha(), n),
                noisySum,
                n,
                n,
                epsilon,
                Neighbouring.REPLACE_ONE,
                params);
    }

    /** The exact sketch without noise (non-private; for tests and noiseless baselines only). */
    public static double[] exactSketch(MaskedSketch sketch) {
        return normalise(sketch.sums(), sketch.alpha(), Math.max(sketch.count(), 1L));
    }

    private static Map<String, Double> parameters(
            MaskedSketch sketch, long sumSensitivity, double epsSum) {
        Map<String, Double> params = new TreeMap<>();
        params.put("epsilon_sum", epsSum);
        params.put("sum_l1_sensitivity", sumSensitivity / MaskedSketch.SCALE);
        params.put(
                "sum_noise_scale",
                GeometricMechanism.scale(sumSensitivity, epsSum) / MaskedSketch.SCALE);
        params.put("alpha_r", sketch.alpha());
        return params;
    }

    private static double[] normalise(long[] sums, double alpha, double divisor) {
        double[] z = new double[sums.length];
        double f = 1.0 / (MaskedSketch.SCALE * alpha * divisor);
        for (int i = 0; i < sums.length; i++) {
            z[i] = sums[i] * f;
        }
        return z;
    }

    private static void checkEpsilon(double epsilon) {
        ReleaseBudget.requireEpsilon(epsilon);
    }
}
