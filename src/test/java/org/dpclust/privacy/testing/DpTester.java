package org.dpclust.privacy.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.Zcdp;

/**
 * Statistical test that a randomized mechanism looks ε-DP on one neighbouring pair (D, D').
 *
 * <p>Pattern: Google's differential-privacy statistical tests (StatisticalTestsUtil,
 * "verifyApproximateDp"): draw N outputs on D and N on D', histogram them into buckets, and check
 * for every bucket B and in both directions p̂_D(B) <= e^ε p̂_D'(B) + δ_tol. δ_tol absorbs sampling
 * error; it is a fixed property of the {@link Options}, never tuned per mechanism to make a test
 * pass. A single run can fail by chance, so tests call {@link #vote} to run R independent
 * repetitions and require a majority. A test of a mechanism is only meaningful together with a
 * negative control: the same harness with the same options must fail (by majority) when the
 * mechanism's noise is halved (run at 2ε, tested against ε).
 *
 * <p>Buckets: scalars are bucketed by quantiles of the pooled sample of D and D' (edges are
 * deduplicated, so discrete-valued outputs are handled); a bucket is [edge_j, edge_{j+1}) with open
 * ends at ±∞. Discrete outputs ({@link #testDiscrete}) use one bucket per observed value. Vector
 * outputs are projected onto the unit vector of the neighbours' difference ({@link
 * #testProjected}): a per-coordinate histogram sees only a small share of the privacy loss.
 *
 * <p>Reproducibility: the suppliers should draw from a {@code PrivacyRandom} with a fixed test
 * secret, which makes every test deterministic; successive repetitions continue the same stream and
 * are therefore independent samples.
 *
 * <p>The statistical tier: mechanism tests live in {@code *DpTest} classes tagged
 * {@code @Tag("dp")} (run alone with {@code mvn test -Dgroups=dp}; {@code mvn verify} runs them
 * with the unit tests) and go through {@link #assertCalibratedPassesAndHalvedFails}, which checks
 * the calibrated mechanism and the halved-noise negative control with the same options and prints
 * one line per mechanism with the worst violations of both.
 *
 * <p>zCDP (Gaussian) mechanisms: the bucketed test at the ε a ρ implies only notices an error of
 * about 2.5× in ρ, so {@link #assertZcdpCalibratedPassesAndLeakyFails} adds an estimate ρ̂ of the
 * pair's ρ ({@link RhoEstimator}) that must fail when the true ρ is {@link #ZCDP_LEAK}× the claim.
 */
public final class DpTester {
    private DpTester() {}

    /**
     * Test parameters.
     *
     * @param samples number of outputs drawn from each of D and D' per run
     * @param buckets number of quantile buckets for scalar tests (ignored by testDiscrete)
     * @param deltaTolerance additive slack δ_tol in p̂_D(B) <= e^ε p̂_D'(B) + δ_tol
     * @param repetitions number of runs for {@link #vote}; should be odd
     */
    public record Options(int samples, int buckets, double deltaTolerance, int repetitions) {
        public Options {
            if (samples < 1 || buckets < 1 || repetitions < 1 || !(deltaTolerance >= 0)) {
                throw new IllegalArgumentException("invalid options");
            }
        }

        /**
         * Defaults used by every mechanism test: 100 000 samples per side, 20 quantile buckets,
         * δ_tol = 0.01, 5 repetitions (majority of 3). At 100 000 samples the standard error of
         * p̂_D(B) - e^ε p̂_D'(B) is below 0.002 for ε <= 1 and buckets of mass <= 0.1, so δ_tol is
         * about 5 standard errors.
         */
        public static Options defaults() {
            return new Options(100_000, 20, 0.01, 5);
        }

        public Options withSamples(int n) {
            return new Options(n, buckets, deltaTolerance, repetitions);
        }

        public Options withBuckets(int b) {
            return new Options(samples, b, deltaTolerance, repetitions);
        }

        public Options withDeltaTolerance(double d) {
            return new Options(samples, buckets, d, repetitions);
        }

        public Options withRepetitions(int r) {
            return new Options(samples, buckets, deltaTolerance, r);
        }
    }

    /**
     * Outcome of one run.
     *
     * @param passed whether every bucket satisfied the inequality in both directions
     * @param worstViolation max over buckets and directions of p̂_D(B) - e^ε p̂_D'(B) (negative
     *     when there is slack); passed iff worstViolation <= δ_tol
     * @param details where the worst violation occurred
     */
    public record Verdict(boolean passed, double worstViolation, String details) {}

    /** Outcome of R repetitions. */
    public record VoteResult(List<Verdict> verdicts) {
        public int passes() {
            return (int) verdicts.stream().filter(Verdict::passed).count();
        }

        /** True when strictly more than half of the runs passed. */
        public boolean passedByMajority() {
            return 2 * passes() > verdicts.size();
        }

        /** Worst violations of all runs, for logs and reports. */
        public double[] worstViolations() {
            return verdicts.stream().mapToDouble(Verdict::worstViolation).toArray();
        }

        public String summary() {
            StringBuilder sb = new StringBuilder();
            sb.append(passes())
                    .append('/')
                    .append(verdicts.size())
                    .append(" runs passed; worst violations ");
            sb.append(
                    Arrays.toString(
                            Arrays.stream(worstViolations())
                                    .mapToObj(v -> String.format("%.5f", v))
                                    .toArray()));
            for (Verdict v : verdicts) {
                sb.append("\n  ").append(v.details());
            }
            return sb.toString();
        }
    }

    /**
     * One draw of a scalar test statistic from the mechanism under test, run on D ({@code
     * neighbour} false) or on D' ({@code neighbour} true) with its noise calibrated to {@code
     * mechanismEpsilon}, taking all privacy noise from {@code rng}. The statistic must be a fixed
     * function of the mechanism's output (e.g. a projection onto the neighbours' difference, or the
     * privacy-loss variable computed with the NOMINAL noise scales of the calibrated mechanism), so
     * that every event it defines is an event on the output.
     */
    @FunctionalInterface
    public interface Statistic {
        double draw(boolean neighbour, double mechanismEpsilon, PrivacyRandom rng);
    }

    /** The two votes of {@link #assertCalibratedPassesAndHalvedFails}. */
    public record Control(VoteResult calibrated, VoteResult halved) {}

    /**
     * The shared DP test: runs the mechanism on the neighbouring pair at its calibrated noise
     * ({@code epsilon}) and at half the noise (2·{@code epsilon}), each with the harness at {@code
     * testedEpsilon}, {@code o.repetitions()} repetitions, both directions of the inequality in
     * every bucket; asserts that the calibrated vote passes by majority and the halved vote fails
     * by majority, and prints one line with the worst violations of both. Fixed seeds: the streams
     * are {@link TestRandoms#stream} of {@code name} and {@code name + "/halved"}.
     *
     * @param testedEpsilon the loss bound the pair is tested against: {@code epsilon} itself, or a
     *     tighter bound the test's javadoc derives for its pair (e.g. ε/2 for the exponential
     *     mechanism under add/remove)
     * @param discrete true for integer-valued statistics (one bucket per value), false for
     *     pooled-quantile buckets
     */
    public static Control assertCalibratedPassesAndHalvedFails(
            String name,
            double epsilon,
            double testedEpsilon,
            Options o,
            boolean discrete,
            Statistic statistic) {
        VoteResult calibrated = voteAt(name, epsilon, testedEpsilon, o, discrete, statistic);
        VoteResult halved =
                voteAt(name + "/halved", 2 * epsilon, testedEpsilon, o, discrete, statistic);
        System.out.printf(
                java.util.Locale.ROOT,
                "DP %s (eps %.4g, tested %.4g, tol %.3g): calibrated %d/%d pass, worst violation"
                        + " %.5f; halved noise %d/%d pass, worst violations %s%n",
                name,
                epsilon,
                testedEpsilon,
                o.deltaTolerance(),
                calibrated.passes(),
                calibrated.verdicts().size(),
                max(calibrated.worstViolations()),
                halved.passes(),
                halved.verdicts().size(),
                Arrays.toString(
                        Arrays.stream(halved.worstViolations())
                                .mapToObj(v -> String.format(java.util.Locale.ROOT, "%.4f", v))
                                .toArray()));
        if (!calibrated.passedByMajority()) {
            throw new AssertionError(
                    name + ": calibrated noise must pass by majority: " + calibrated.summary());
        }
        if (halved.passedByMajority()) {
            throw new AssertionError(
                    name
                            + ": halved noise must fail by majority (the test has no power): "
                            + halved.summary());
        }
        return new Control(calibrated, halved);
    }

    /**
     * The calibrated ρ of the zCDP (Gaussian) mechanism tests: the statistic runs the mechanism at
     * ρ = {@value #ZCDP_RHO} (calibrated), at {@link #ZCDP_LEAK}·ρ (σ/√1.5) and at 4ρ (half the
     * noise).
     */
    public static final double ZCDP_RHO = 0.5;

    /**
     * The δ at which the zCDP tests convert {@link #ZCDP_RHO} to the hockey-stick test's ε ({@link
     * Zcdp#epsilon}, about 3.54): well below the harness's δ_tol, so a calibrated mechanism passes
     * every bucket, while at half the noise (ρ = 2) the loss exceeds that ε with probability about
     * 0.2, which the top quantile buckets see.
     */
    public static final double ZCDP_DELTA = 1e-3;

    /**
     * The factor by which a mechanism's true ρ may exceed its claim before the zCDP tests must
     * fail: the ρ̂ check ({@link RhoEstimator}) rejects ρ̂ > √{@value #ZCDP_LEAK}·ρ, the geometric
     * midpoint between the calibrated ρ and {@value #ZCDP_LEAK}ρ.
     */
    public static final double ZCDP_LEAK = 1.5;

    /**
     * Standard errors of ρ̂ that the expected ρ̂ of the calibrated run and of the {@link
     * #ZCDP_LEAK} run must lie on either side of the threshold ({@link #rhoStandardError}); the
     * zCDP check refuses sample sizes with less power.
     */
    public static final double ZCDP_MIN_Z = 4;

    /**
     * The parts of a statistic drawn from a ρ-zCDP mechanism run at {@code rho} on D or D′: each an
     * affine function of the output, typically the privacy-loss terms ({@link #gaussianLoss}, at
     * the calibrated σ's) of one group of coordinates that share a σ (e.g. the counts, the sums).
     * The hockey-stick test sees their sum; ρ̂ their best linear combination. One part suffices
     * when all coordinates that differ share one σ.
     */
    @FunctionalInterface
    public interface ZcdpParts {
        double[] draw(boolean neighbour, double rho, PrivacyRandom rng);
    }

    /**
     * An estimate of the pair's ρ from n draws a side.
     *
     * @param rho ρ̂ = ½ Δ̂ᵀ Σ̂⁻¹ Δ̂
     * @param standardError {@link #rhoStandardError}(ρ̂, n)
     * @param samples n, the draws on each side
     */
    public record RhoEstimate(double rho, double standardError, long samples) {}

    /**
     * Standard error of ρ̂ from n draws a side when the parts are Gaussian: √((4ρ + ρ²)/n). By the
     * delta method in the whitened direction w = Σ⁻¹Δ: Δ̂ (variance 2Σ/n) moves ρ̂ by wᵀ(Δ̂ − Δ),
     * variance 2ρ·2/n = 4ρ/n; the pooled Σ̂ (2n − 2 degrees of freedom) moves it by −½wᵀ(Σ̂ − Σ)w,
     * variance ¼·2(2ρ)²/(2n) = ρ²/n.
     */
    public static double rhoStandardError(double rho, long n) {
        return Math.sqrt((4 * rho + rho * rho) / n);
    }

    /**
     * Estimates the ρ of a Gaussian-type pair from its parts ({@link ZcdpParts}): sample means on D
     * and D′, covariance pooled over both sides (each centred on its own mean), ρ̂ = ½ Δ̂ᵀ Σ̂⁻¹ Δ̂
     * with Δ̂ the difference of the means.
     *
     * <p>Why this estimates ρ. If the noise is Gaussian and every part an affine function of the
     * output, the parts' vector P is N(μ, Σ) on D and N(μ′, Σ) on D′, and D_α(P_D ‖ P_D′) = α·½
     * ΔᵀΣ⁻¹Δ for every order α (Δ = μ′ − μ): P is exactly ρ_P-zCDP on the pair with ρ_P = ½ΔᵀΣ⁻¹Δ,
     * whose privacy-loss distribution is N(ρ_P, 2ρ_P) — ρ̂ fits that distribution. ρ_P is at most
     * the mechanism's ρ on the pair (post-processing) and equals it when some linear combination of
     * the parts is the true privacy-loss variable, which holds when each part is the loss of a
     * group of coordinates sharing one σ, whatever the σ's really are (the combination re-weights
     * the groups). The discrete Gaussian at σ ≥ 1 has the continuous one's Rényi divergences for
     * integer shifts (Canonne, Kamath and Steinke 2020) and its variance is σ² to within e^(−2π²σ²)
     * relative, so the same holds. Unlike the hockey-stick test at ε(ρ, δ), whose tails only show
     * an error of about 2.5× in ρ, ρ̂ is the parameter itself with a relative standard error of
     * √((4/ρ + 1)/n), 2.1 % at ρ = ½ and n = 20 000. Bias: E[½ΔᵀΣ̂⁻¹Δ] and the noise of Δ̂ add
     * about (k + 1)·ρ/n + k/n for k parts, negligible here.
     *
     * <p>The nominal loss L (computed with the claimed σ's) would not do: it is affine in the
     * output, so E_D[L] is the claimed ρ whatever the true σ, and Var_D[L] = 2ρ(σ_true/σ_claimed)²
     * shrinks as the noise does; the loss with the TRUE σ's has E = ρ and Var = 2ρ, which is what
     * ρ̂ estimates.
     */
    public static final class RhoEstimator {
        private final long[] n = new long[2];
        private double[][] mean;
        private double[][][] m2;

        /** Adds one draw of the parts, on D ({@code neighbour} false) or on D′. */
        public void add(boolean neighbour, double[] parts) {
            if (mean == null) {
                int k = parts.length;
                if (k < 1) {
                    throw new IllegalArgumentException("no parts");
                }
                mean = new double[2][k];
                m2 = new double[2][k][k];
            }
            if (parts.length != mean[0].length) {
                throw new IllegalArgumentException("parts length changed");
            }
            int s = neighbour ? 1 : 0;
            double[] mu = mean[s];
            double[][] m = m2[s];
            n[s]++;
            double[] before = new double[mu.length];
            for (int i = 0; i < mu.length; i++) {
                before[i] = parts[i] - mu[i];
                mu[i] += before[i] / n[s];
            }
            for (int i = 0; i < mu.length; i++) {
                for (int j = 0; j < mu.length; j++) {
                    m[i][j] += before[i] * (parts[j] - mu[j]); // Welford
                }
            }
        }

        /**
         * ρ̂ = ½ Δ̂ᵀ Σ̂⁻¹ Δ̂; parts with zero pooled variance are dropped (ρ̂ = ∞ if their means
         * differ).
         *
         * @throws IllegalArgumentException if either side has fewer than 2 draws or the parts are
         *     linearly dependent
         */
        public RhoEstimate estimate() {
            if (mean == null || n[0] < 2 || n[1] < 2) {
                throw new IllegalArgumentException("need two draws a side");
            }
            int k = mean[0].length;
            double dof = n[0] + n[1] - 2;
            List<Integer> keep = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                double var = (m2[0][i][i] + m2[1][i][i]) / dof;
                double delta = mean[1][i] - mean[0][i];
                if (var > 0) {
                    keep.add(i);
                } else if (delta != 0) {
                    return new RhoEstimate(
                            Double.POSITIVE_INFINITY, Double.NaN, Math.min(n[0], n[1]));
                }
            }
            int q = keep.size();
            double[][] a = new double[q][q + 1];
            for (int r = 0; r < q; r++) {
                int i = keep.get(r);
                for (int c = 0; c < q; c++) {
                    int j = keep.get(c);
                    a[r][c] = (m2[0][i][j] + m2[1][i][j]) / dof;
                }
                a[r][q] = mean[1][i] - mean[0][i];
            }
            double rho = 0.5 * quadraticForm(a);
            long samples = Math.min(n[0], n[1]);
            return new RhoEstimate(rho, rhoStandardError(rho, samples), samples);
        }

        /** bᵀS⁻¹b for the augmented matrix [S | b], S symmetric positive definite (Cholesky). */
        private static double quadraticForm(double[][] a) {
            int q = a.length;
            double[][] l = new double[q][q];
            double form = 0;
            double[] y = new double[q];
            for (int i = 0; i < q; i++) {
                for (int j = 0; j <= i; j++) {
                    double s = a[i][j];
                    for (int t = 0; t < j; t++) {
                        s -= l[i][t] * l[j][t];
                    }
                    if (i == j) {
                        if (!(s > 1e-12 * a[i][i])) {
                            throw new IllegalArgumentException("parts are linearly dependent");
                        }
                        l[i][i] = Math.sqrt(s);
                    } else {
                        l[i][j] = s / l[j][j];
                    }
                }
                double s = a[i][q];
                for (int t = 0; t < i; t++) {
                    s -= l[i][t] * y[t];
                }
                y[i] = s / l[i][i];
                form += y[i] * y[i];
            }
            return form;
        }
    }

    /** What {@link #assertZcdpCalibratedPassesAndLeakyFails} measured. */
    public record ZcdpControl(
            Control hockeyStick,
            double threshold,
            RhoEstimate calibrated,
            RhoEstimate leaky,
            RhoEstimate halved) {}

    /**
     * The shared zCDP test of a (Gaussian) mechanism on a pair that uses its whole sensitivity, so
     * the pair's ρ is the mechanism's ρ = {@link #ZCDP_RHO}. Two checks, both with a control that
     * must fail:
     *
     * <ul>
     *   <li>ρ̂ ({@link RhoEstimator}) of the calibrated run's draws (all repetitions, N·R a side)
     *       must be at most √{@link #ZCDP_LEAK}·ρ, and ρ̂ of N draws a side at {@link #ZCDP_LEAK}·ρ
     *       (noise σ/√1.5; stream {@code name + "/x1.5"}) must exceed it. Fixed seeds; before
     *       drawing, the check refuses N, R that leave less than {@link #ZCDP_MIN_Z} standard
     *       errors ({@link #rhoStandardError} at the expected ρ̂) on either side of the threshold.
     *   <li>the hockey-stick test ({@link #assertCalibratedPassesAndHalvedFails}) on the sum of the
     *       parts at ε = {@link Zcdp#epsilon}(ρ, {@link #ZCDP_DELTA}): the calibrated run must pass
     *       by majority and the run at 4ρ (half the noise; stream {@code name + "/halved"}) fail by
     *       majority. It checks the tails, which ρ̂ (two moments) does not.
     * </ul>
     *
     * Prints one {@code DP <name>} line with the hockey-stick violations and the three ρ̂.
     */
    public static ZcdpControl assertZcdpCalibratedPassesAndLeakyFails(
            String name, Options o, ZcdpParts parts) {
        double rho = ZCDP_RHO;
        double leak = ZCDP_LEAK * rho;
        double threshold = Math.sqrt(ZCDP_LEAK) * rho;
        long nCalibrated = (long) o.samples() * o.repetitions();
        double zCalibrated = (threshold - rho) / rhoStandardError(rho, nCalibrated);
        double zLeak = (leak - threshold) / rhoStandardError(leak, o.samples());
        if (zCalibrated < ZCDP_MIN_Z || zLeak < ZCDP_MIN_Z) {
            throw new IllegalArgumentException(
                    String.format(
                            java.util.Locale.ROOT,
                            "%s: %d samples leave %.1f / %.1f standard errors at the ρ̂ threshold"
                                    + " (need %.0f): no power at %.1f×ρ",
                            name,
                            o.samples(),
                            zCalibrated,
                            zLeak,
                            ZCDP_MIN_Z,
                            ZCDP_LEAK));
        }
        double tested = Zcdp.epsilon(rho, ZCDP_DELTA);
        RhoEstimator calibratedRho = new RhoEstimator();
        RhoEstimator halvedRho = new RhoEstimator();
        VoteResult calibrated = zcdpVote(name, rho, tested, o, parts, calibratedRho);
        VoteResult halved = zcdpVote(name + "/halved", 4 * rho, tested, o, parts, halvedRho);
        RhoEstimator leakyRho = new RhoEstimator();
        PrivacyRandom rng = TestRandoms.stream(name + "/x1.5");
        for (int i = 0; i < o.samples(); i++) {
            leakyRho.add(false, parts.draw(false, leak, rng));
            leakyRho.add(true, parts.draw(true, leak, rng));
        }
        RhoEstimate c = calibratedRho.estimate();
        RhoEstimate l = leakyRho.estimate();
        RhoEstimate h = halvedRho.estimate();
        System.out.printf(
                java.util.Locale.ROOT,
                "DP %s (rho %.3g, eps %.4g, tol %.3g): rho-hat calibrated %.4f ± %.4f (n %d),"
                        + " x%.1f %.4f ± %.4f (n %d), halved %.4f; threshold %.4f;"
                        + " hockey-stick calibrated %d/%d pass, worst violation %.5f;"
                        + " halved noise %d/%d pass, worst violations %s%n",
                name,
                rho,
                tested,
                o.deltaTolerance(),
                c.rho(),
                c.standardError(),
                c.samples(),
                ZCDP_LEAK,
                l.rho(),
                l.standardError(),
                l.samples(),
                h.rho(),
                threshold,
                calibrated.passes(),
                calibrated.verdicts().size(),
                max(calibrated.worstViolations()),
                halved.passes(),
                halved.verdicts().size(),
                Arrays.toString(
                        Arrays.stream(halved.worstViolations())
                                .mapToObj(v -> String.format(java.util.Locale.ROOT, "%.4f", v))
                                .toArray()));
        if (!(c.rho() <= threshold)) {
            throw new AssertionError(
                    String.format(
                            java.util.Locale.ROOT,
                            "%s: calibrated rho-hat %.4f ± %.4f exceeds %.4f (claimed rho %.3g)",
                            name,
                            c.rho(),
                            c.standardError(),
                            threshold,
                            rho));
        }
        if (!calibrated.passedByMajority()) {
            throw new AssertionError(
                    name + ": calibrated noise must pass by majority: " + calibrated.summary());
        }
        if (halved.passedByMajority()) {
            throw new AssertionError(
                    name
                            + ": halved noise must fail by majority (the test has no power): "
                            + halved.summary());
        }
        if (!(l.rho() > threshold)) {
            throw new AssertionError(
                    String.format(
                            java.util.Locale.ROOT,
                            "%s: rho-hat %.4f at %.1f×rho does not exceed %.4f (the test has no"
                                    + " power)",
                            name,
                            l.rho(),
                            ZCDP_LEAK,
                            threshold));
        }
        return new ZcdpControl(new Control(calibrated, halved), threshold, c, l, h);
    }

    /** Like {@link #voteAt} on the sum of the parts, also feeding every draw to {@code rho}. */
    private static VoteResult zcdpVote(
            String label,
            double mechanismRho,
            double testedEpsilon,
            Options o,
            ZcdpParts parts,
            RhoEstimator rho) {
        PrivacyRandom rng = TestRandoms.stream(label);
        return vote(
                o,
                () -> {
                    double[] a = new double[o.samples()];
                    double[] b = new double[o.samples()];
                    for (int i = 0; i < o.samples(); i++) {
                        double[] pa = parts.draw(false, mechanismRho, rng);
                        double[] pb = parts.draw(true, mechanismRho, rng);
                        rho.add(false, pa);
                        rho.add(true, pb);
                        a[i] = Arrays.stream(pa).sum();
                        b[i] = Arrays.stream(pb).sum();
                    }
                    return compareScalars(a, b, testedEpsilon, o);
                });
    }

    private static VoteResult voteAt(
            String label,
            double mechanismEpsilon,
            double testedEpsilon,
            Options o,
            boolean discrete,
            Statistic statistic) {
        PrivacyRandom rng = TestRandoms.stream(label);
        return vote(
                o,
                () ->
                        discrete
                                ? testDiscrete(
                                        () -> (int) statistic.draw(false, mechanismEpsilon, rng),
                                        () -> (int) statistic.draw(true, mechanismEpsilon, rng),
                                        testedEpsilon,
                                        o)
                                : testScalar(
                                        () -> statistic.draw(false, mechanismEpsilon, rng),
                                        () -> statistic.draw(true, mechanismEpsilon, rng),
                                        testedEpsilon,
                                        o));
    }

    private static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(Double.NaN);
    }

    /**
     * The privacy-loss contribution log p(o | a)/p(o | b) of one coordinate o released with
     * Laplace-type noise of scale {@code scale} around a (on D) or b (on D'): (|o − b| − |o −
     * a|)/scale, exactly the log density ratio for the (discrete) Laplace distribution. Summed over
     * the coordinates where the neighbours differ it is the privacy-loss variable, the optimal
     * (Neyman–Pearson) 1-D statistic: with the nominal scales it lies in [−ε, ε] for a calibrated
     * mechanism, and its tails are where halved noise shows.
     */
    public static double laplaceLoss(double o, double a, double b, double scale) {
        return (Math.abs(o - b) - Math.abs(o - a)) / scale;
    }

    /**
     * The same for (discrete) Gaussian noise of standard deviation σ: ((o − b)² − (o − a)²)/(2σ²),
     * exact for the discrete Gaussian too (its normaliser does not depend on the mean).
     */
    public static double gaussianLoss(double o, double a, double b, double sigma) {
        return ((o - b) * (o - b) - (o - a) * (o - a)) / (2 * sigma * sigma);
    }

    /** Projection of x onto direction/|direction|. */
    public static double project(double[] x, double[] direction) {
        double norm = 0;
        for (double d : direction) {
            norm += d * d;
        }
        return dot(x, direction) / Math.sqrt(norm);
    }

    /** Runs {@code o.repetitions()} independent trials. */
    public static VoteResult vote(Options o, Supplier<Verdict> trial) {
        List<Verdict> out = new ArrayList<>();
        for (int r = 0; r < o.repetitions(); r++) {
            out.add(trial.get());
        }
        return new VoteResult(List.copyOf(out));
    }

    /** True when a majority of {@code o.repetitions()} trials pass. */
    public static boolean passesByMajority(Options o, Supplier<Verdict> trial) {
        return vote(o, trial).passedByMajority();
    }

    /** One run on scalar outputs with pooled-quantile buckets. */
    public static Verdict testScalar(
            DoubleSupplier onD, DoubleSupplier onDPrime, double epsilon, Options o) {
        double[] a = new double[o.samples()];
        double[] b = new double[o.samples()];
        for (int i = 0; i < o.samples(); i++) {
            a[i] = onD.getAsDouble();
            b[i] = onDPrime.getAsDouble();
        }
        return compareScalars(a, b, epsilon, o);
    }

    /**
     * One run on vector outputs: each output is projected onto direction/|direction| (direction =
     * the neighbours' difference, e.g. f(D') - f(D)), then tested as a scalar.
     */
    public static Verdict testProjected(
            Supplier<double[]> onD,
            Supplier<double[]> onDPrime,
            double[] direction,
            double epsilon,
            Options o) {
        double norm = 0;
        for (double d : direction) {
            norm += d * d;
        }
        norm = Math.sqrt(norm);
        if (!(norm > 0)) {
            throw new IllegalArgumentException("direction must be non-zero");
        }
        double[] unit = new double[direction.length];
        for (int i = 0; i < unit.length; i++) {
            unit[i] = direction[i] / norm;
        }
        double[] a = new double[o.samples()];
        double[] b = new double[o.samples()];
        for (int i = 0; i < o.samples(); i++) {
            a[i] = dot(onD.get(), unit);
            b[i] = dot(onDPrime.get(), unit);
        }
        return compareScalars(a, b, epsilon, o);
    }

    /** One run on integer outputs, one bucket per observed value. */
    public static Verdict testDiscrete(
            IntSupplier onD, IntSupplier onDPrime, double epsilon, Options o) {
        TreeMap<Integer, long[]> counts = new TreeMap<>();
        for (int i = 0; i < o.samples(); i++) {
            counts.computeIfAbsent(onD.getAsInt(), k -> new long[2])[0]++;
            counts.computeIfAbsent(onDPrime.getAsInt(), k -> new long[2])[1]++;
        }
        double n = o.samples();
        double[] pa = new double[counts.size()];
        double[] pb = new double[counts.size()];
        String[] labels = new String[counts.size()];
        int j = 0;
        for (var e : counts.entrySet()) {
            pa[j] = e.getValue()[0] / n;
            pb[j] = e.getValue()[1] / n;
            labels[j] = "value " + e.getKey();
            j++;
        }
        return check(pa, pb, labels, epsilon, o);
    }

    private static double dot(double[] x, double[] unit) {
        if (x.length != unit.length) {
            throw new IllegalArgumentException(
                    "output dimension " + x.length + " != " + unit.length);
        }
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += x[i] * unit[i];
        }
        return s;
    }

    private static Verdict compareScalars(double[] a, double[] b, double epsilon, Options o) {
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        Arrays.sort(pooled);
        double[] edges =
                java.util.stream.IntStream.range(1, o.buckets())
                        .mapToDouble(k -> pooled[(int) ((long) k * pooled.length / o.buckets())])
                        .distinct()
                        .toArray();
        double[] pa = histogram(a, edges);
        double[] pb = histogram(b, edges);
        String[] labels = new String[pa.length];
        for (int k = 0; k < labels.length; k++) {
            String lo = k == 0 ? "-inf" : String.format("%.4g", edges[k - 1]);
            String hi = k == edges.length ? "+inf" : String.format("%.4g", edges[k]);
            labels[k] = "[" + lo + ", " + hi + ")";
        }
        return check(pa, pb, labels, epsilon, o);
    }

    /** Bucket k = [edges[k-1], edges[k]) with edges sorted ascending and distinct. */
    private static double[] histogram(double[] xs, double[] edges) {
        double[] h = new double[edges.length + 1];
        for (double x : xs) {
            int pos = Arrays.binarySearch(edges, x);
            int k = pos >= 0 ? pos + 1 : -pos - 1;
            h[k]++;
        }
        for (int k = 0; k < h.length; k++) {
            h[k] /= xs.length;
        }
        return h;
    }

    private static Verdict check(
            double[] pa, double[] pb, String[] labels, double epsilon, Options o) {
        double e = Math.exp(epsilon);
        double worst = Double.NEGATIVE_INFINITY;
        String where = "";
        for (int k = 0; k < pa.length; k++) {
            double v1 = pa[k] - e * pb[k];
            double v2 = pb[k] - e * pa[k];
            if (v1 > worst) {
                worst = v1;
                where = String.format("D vs D' in %s: p=%.5f q=%.5f", labels[k], pa[k], pb[k]);
            }
            if (v2 > worst) {
                worst = v2;
                where = String.format("D' vs D in %s: p=%.5f q=%.5f", labels[k], pb[k], pa[k]);
            }
        }
        boolean passed = worst <= o.deltaTolerance();
        return new Verdict(
                passed,
                worst,
                String.format(
                        "%s: worst p - e^eps q = %.5f (tol %.4f, eps %.3f) at %s",
                        passed ? "PASS" : "FAIL", worst, o.deltaTolerance(), epsilon, where));
    }
}
