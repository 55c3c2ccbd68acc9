package org.dpclust.sketch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;

/**
 * CL-OMPR (compressive learning by orthogonal matching pursuit with replacement; Keriven et al.,
 * "Compressive K-means", ICASSP 2017; as implemented by pycle's {@code CLOMP_CKM}, see
 * docs/algorithms.md#cl-ompr): decodes k centroids and weights from a sketch z ≈ Σ_k α_k A(c_k),
 * where A(c) ∈ R^{2m} is the real-stacked sketch of a Dirac at c, (cos ω_j·c)_j then (sin ω_j·c)_j,
 * in unit-box coordinates.
 *
 * <p>Contract: pure post-processing of a (released) sketch and public inputs (frequencies, k,
 * declared bounds, a public seed); it reads no private data, so its output carries the sketch's
 * guarantee. The seed drives only the random starting points (public randomness). Centroids are
 * constrained to the unit box and returned in original coordinates; weights are non-negative and
 * sum to 1. Deterministic on every JVM: cosines and sines come from {@link SinCos} (plain IEEE
 * arithmetic, one range reduction for both, about half the cost of {@link Math#cos} plus {@link
 * Math#sin}, whose intrinsics may differ between JVMs and CPUs), so a replayed window decodes to
 * the same bytes on any host.
 *
 * <h2>Algorithm and which solver does what</h2>
 *
 * Starting from the residual r = z, for t = 1..2k:
 *
 * <ol>
 *   <li><b>New atom</b>: c = argmax over the box of ⟨A(c)/‖A(c)‖, r⟩ (‖A(c)‖ = √m is constant).
 *       Start: the best of {@code candidates} uniform points of the box (public seed; pycle starts
 *       from a single uniform point); refine: {@link ProjectedLbfgs} (projected L-BFGS, the box
 *       enforced by projection, analytic gradient), as pycle uses scipy's L-BFGS-B.
 *   <li>Add c to the support.
 *   <li><b>Replacement</b> (support larger than k): {@link NonNegativeLeastSquares} (Lawson–Hanson)
 *       of z on the normalised atoms; drop the atom with the smallest coefficient (if it is the one
 *       just added, skip 4–5, as pycle does). All atoms have norm √m, so normalising only rescales
 *       the coefficients.
 *   <li><b>Weights</b>: α = NNLS of z on the atoms (Lawson–Hanson).
 *   <li><b>Joint fine-tune</b>: {@link ProjectedLbfgs} on ½‖z − Σ_k α_k A(c_k)‖² over all centroids
 *       (in the box) and weights (α_k ≥ 0) from the current point, analytic gradient, relative
 *       tolerance 1e−6; then r = z − Σ α_k A(c_k).
 * </ol>
 *
 * A final fine-tune with a 50× tighter tolerance follows, then α is normalised. The whole procedure
 * is repeated {@code replicates} times from independent starts, keeping the solution with the
 * smallest residual ‖z − Σ α_k A(c_k)‖ (pycle's {@code fit_several_times}).
 *
 * <p>Hipparchus' Levenberg–Marquardt (with a projecting parameter validator) was the first choice
 * for steps 1 and 5, but its QR factorisation of the 2m × k(d+1) Jacobian at every iteration made
 * one replicate at m = 1000, k = d = 10 take ~25 s, against ~0.6 s for the gradient-only projected
 * quasi-Newton, which is also what the reference toolbox uses.
 */
public final class ClOmpr {
    private static final double STEP_TOLERANCE = 1e-6;
    private static final double FINAL_TOLERANCE = 0.02e-6;

    /**
     * Decoder settings.
     *
     * @param replicates independent runs, best residual kept
     * @param candidates uniform random starting points evaluated per new atom
     * @param maxIterations projected L-BFGS iterations per optimisation (steps 1 and 5)
     * @param seed public seed of the starting points
     */
    public record Options(int replicates, int candidates, int maxIterations, long seed) {
        public Options {
            if (replicates < 1 || candidates < 1 || maxIterations < 1) {
                throw new IllegalArgumentException(
                        "replicates, candidates and maxIterations must be >= 1");
            }
        }

        /**
         * 3 replicates, 256 candidates per atom, at most 300 L-BFGS iterations per optimisation.
         */
        public static Options defaults(long seed) {
            return new Options(3, 256, 300, seed);
        }
    }

    /**
     * Decoded mixture.
     *
     * @param centroids k centroids in original coordinates
     * @param weights k weights, non-negative, summing to 1
     * @param residualNorm ‖z − Σ α_k A(c_k)‖ with the unnormalised weights
     * @param unitCentroids the same centroids in unit-box coordinates
     */
    public record Result(
            double[][] centroids,
            double[] weights,
            double residualNorm,
            double[][] unitCentroids) {}

    private final int m;
    private final int d;

    /**
     * ω transposed, d × m row-major: omegaT[t·m + j] = ω_j[t], so loops over j run on contiguous
     * memory.
     */
    private final double[] omegaT;

    /** Work array: m phases. */
    private final double[] phases;

    /** Work array: cos and sin of one phase. */
    private final double[] cosines;

    private final double[] sines;

    private ClOmpr(FrequencyMatrix frequencies) {
        this.m = frequencies.size();
        this.d = frequencies.dimension();
        double[] omega = frequencies.toArray();
        this.omegaT = new double[d * m];
        for (int j = 0; j < m; j++) {
            for (int t = 0; t < d; t++) {
                omegaT[t * m + j] = omega[j * d + t];
            }
        }
        this.phases = new double[m];
        this.cosines = new double[m];
        this.sines = new double[m];
    }

    /**
     * Decodes k centroids from a real-stacked sketch of length 2m.
     *
     * @throws IllegalArgumentException on mismatched lengths or k < 1
     */
    public static Result decode(
            double[] sketch,
            FrequencyMatrix frequencies,
            int k,
            DomainBounds bounds,
            Options options) {
        if (sketch.length != 2 * frequencies.size()) {
            throw new IllegalArgumentException(
                    "sketch has length " + sketch.length + ", expected " + 2 * frequencies.size());
        }
        if (k < 1 || bounds.dimension() != frequencies.dimension()) {
            throw new IllegalArgumentException(
                    "need k >= 1 and bounds of the frequencies' dimension");
        }
        ClOmpr decoder = new ClOmpr(frequencies);
        SplittableRandom rng =
                new SplittableRandom(options.seed()); // public randomness (not privacy noise)
        Support best = null;
        for (int rep = 0; rep < options.replicates(); rep++) {
            Support s = decoder.run(sketch, k, options, rng.split());
            if (best == null || s.residualNorm < best.residualNorm) {
                best = s;
            }
        }
        return best.toResult(bounds, k, decoder.d);
    }

    /**
     * A warm start: public centroids to start from (the stream's previous released centroids) and
     * how well they explained their own sketch.
     *
     * @param unitCentroids k centroids in unit-box coordinates (clamped into the box on use)
     * @param relativeResidual ‖z − Σ α_k A(c_k)‖ / ‖z‖ of the decode they came from
     */
    public record WarmStart(double[][] unitCentroids, double relativeResidual) {}

    /** Tolerated growth of the relative residual before a warm start is judged not good enough. */
    public static final double WARM_SLACK = 1.1;

    /**
     * {@link #decode}, started from {@code warm} when it is given: the warm centroids get NNLS
     * weights and the joint fine-tune (step 5, then the final one), and that solution is kept alone
     * when its relative residual is at most {@value #WARM_SLACK} × {@code warm.relativeResidual()}
     * (the data moved little since the warm centroids were decoded); otherwise the cold {@link
     * #decode} runs too and the smaller residual wins (the warm solution on ties). Pure
     * post-processing of public inputs, deterministic; {@code warm == null} is exactly {@link
     * #decode}.
     */
    public static Result decode(
            double[] sketch,
            FrequencyMatrix frequencies,
            int k,
            DomainBounds bounds,
            Options options,
            WarmStart warm) {
        if (warm == null) {
            return decode(sketch, frequencies, k, bounds, options);
        }
        if (warm.unitCentroids().length != k) {
            throw new IllegalArgumentException(
                    "warm start has " + warm.unitCentroids().length + " centroids, k = " + k);
        }
        ClOmpr decoder = new ClOmpr(frequencies);
        Support s = decoder.warm(sketch, warm.unitCentroids(), options.maxIterations());
        double norm = Math.sqrt(NonNegativeLeastSquares.dot(sketch, sketch));
        if (s.residualNorm <= WARM_SLACK * warm.relativeResidual() * norm) {
            return s.toResult(bounds, k, decoder.d);
        }
        Result cold = decode(sketch, frequencies, k, bounds, options);
        return cold.residualNorm() < s.residualNorm ? cold : s.toResult(bounds, k, decoder.d);
    }

    /** The relative residual ‖z − Σ α_k A(c_k)‖ / ‖z‖ of a decode of {@code sketch}. */
    public static double relativeResidual(Result decoded, double[] sketch) {
        double norm = Math.sqrt(NonNegativeLeastSquares.dot(sketch, sketch));
        return norm > 0 ? decoded.residualNorm() / norm : 0.0;
    }

    private Support warm(double[] z, double[][] start, int maxIterations) {
        Support s = new Support();
        List<double[]> atoms = new ArrayList<>();
        for (double[] c : start) {
            if (c.length != d) {
                throw new IllegalArgumentException("warm centroid of dimension " + c.length);
            }
            double[] u = new double[d];
            for (int t = 0; t < d; t++) {
                u[t] = Math.min(1.0, Math.max(0.0, c[t]));
            }
            s.centroids.add(u);
            atoms.add(atom(u));
        }
        s.weights = NonNegativeLeastSquares.solve(atoms.toArray(new double[0][]), z);
        jointFit(s, z, maxIterations, STEP_TOLERANCE);
        return finish(s, z, maxIterations);
    }

    /** Current support: centroids (unit box) and weights. */
    private static final class Support {
        final List<double[]> centroids = new ArrayList<>();
        double[] weights = new double[0];
        double residualNorm = Double.POSITIVE_INFINITY;

        Result toResult(DomainBounds bounds, int k, int d) {
            int size = centroids.size();
            double total = 0;
            for (double w : weights) {
                total += w;
            }
            double[][] unit = new double[size][];
            double[][] original = new double[size][d];
            double[] normalised = new double[size];
            for (int i = 0; i < size; i++) {
                unit[i] = centroids.get(i).clone();
                for (int t = 0; t < d; t++) {
                    original[i][t] = bounds.lower(t) + unit[i][t] * bounds.width(t);
                }
                normalised[i] = total > 0 ? weights[i] / total : 1.0 / size;
            }
            return new Result(original, normalised, residualNorm, unit);
        }
    }

    private Support run(double[] z, int k, Options o, SplittableRandom rng) {
        Support s = new Support();
        List<double[]> atoms = new ArrayList<>();
        double[] residual = z.clone();
        for (int t = 0; t < 2 * k; t++) {
            double[] c = newAtom(residual, o, rng);
            s.centroids.add(c);
            atoms.add(atom(c));
            if (s.centroids.size() > k) {
                double[] beta = NonNegativeLeastSquares.solve(atoms.toArray(new double[0][]), z);
                int drop = argmin(beta);
                s.centroids.remove(drop);
                atoms.remove(drop);
                if (drop == beta.length - 1) {
                    continue;
                }
            }
            s.weights = NonNegativeLeastSquares.solve(atoms.toArray(new double[0][]), z);
            jointFit(s, z, o.maxIterations(), STEP_TOLERANCE);
            atoms.clear();
            for (double[] centroid : s.centroids) {
                atoms.add(atom(centroid));
            }
            residual = residual(z, atoms, s.weights);
        }
        return finish(s, z, o.maxIterations());
    }

    /** The final fine-tune and the residual norm of the support. */
    private Support finish(Support s, double[] z, int maxIterations) {
        jointFit(s, z, maxIterations, FINAL_TOLERANCE);
        List<double[]> atoms = new ArrayList<>();
        for (double[] centroid : s.centroids) {
            atoms.add(atom(centroid));
        }
        double[] finalResidual = residual(z, atoms, s.weights);
        s.residualNorm = Math.sqrt(NonNegativeLeastSquares.dot(finalResidual, finalResidual));
        return s;
    }

    /** Step 1: best random candidate by correlation with the residual, refined by projected LM. */
    private double[] newAtom(double[] residual, Options o, SplittableRandom rng) {
        double[] best = null;
        double bestCorr = Double.NEGATIVE_INFINITY;
        double[] c = new double[d];
        for (int i = 0; i < o.candidates(); i++) {
            for (int t = 0; t < d; t++) {
                c[t] = rng.nextDouble(); // public randomness (not privacy noise)
            }
            double corr = correlation(c, residual);
            if (corr > bestCorr) {
                bestCorr = corr;
                best = c.clone();
            }
        }
        return maximiseCorrelation(best, residual, o.maxIterations());
    }

    private double correlation(double[] c, double[] residual) {
        phases(c, 0, phases);
        double s = 0;
        SinCos.of(phases, m, cosines, sines);
        for (int j = 0; j < m; j++) {
            s += cosines[j] * residual[j] + sines[j] * residual[m + j];
        }
        return s;
    }

    /** Step 5 on the whole support, in place. */
    private void jointFit(Support s, double[] z, int maxIterations, double tolerance) {
        int size = s.centroids.size();
        double[] start = new double[size * (d + 1)];
        for (int i = 0; i < size; i++) {
            System.arraycopy(s.centroids.get(i), 0, start, i * d, d);
            start[size * d + i] = s.weights[i];
        }
        double[] p = fit(start, size, z, maxIterations, tolerance);
        for (int i = 0; i < size; i++) {
            double[] c = new double[d];
            System.arraycopy(p, i * d, c, 0, d);
            s.centroids.set(i, c);
        }
        double[] w = new double[size];
        System.arraycopy(p, size * d, w, 0, size);
        s.weights = w;
    }

    /**
     * Step 5: projected L-BFGS on ½‖Σ_i a_i A(c_i) − target‖² over p = (c_1..c_n, a_1..a_n) with
     * c_i ∈ [0,1]^d and a_i ≥ 0, analytic gradient.
     */
    private double[] fit(
            double[] start, int atoms, double[] target, int maxIterations, double tolerance) {
        int params = atoms * (d + 1);
        double[] model = new double[2 * m];
        double[] cos = new double[atoms * m];
        double[] sin = new double[atoms * m];
        double[] q = new double[m];
        ProjectedLbfgs.Objective objective =
                (p, grad) -> {
                    Arrays.fill(model, 0.0);
                    for (int i = 0; i < atoms; i++) {
                        double a = p[atoms * d + i];
                        phases(p, i * d, phases);
                        SinCos.of(phases, m, cosines, sines);
                        for (int j = 0; j < m; j++) {
                            double cs = cosines[j];
                            double sn = sines[j];
                            cos[i * m + j] = cs;
                            sin[i * m + j] = sn;
                            model[j] += a * cs;
                            model[m + j] += a * sn;
                        }
                    }
                    double value = 0;
                    for (int j = 0; j < 2 * m; j++) {
                        model[j] -= target[j];
                        value += model[j] * model[j];
                    }
                    for (int i = 0; i < atoms; i++) {
                        double a = p[atoms * d + i];
                        double ga = 0;
                        for (int j = 0; j < m; j++) {
                            double cs = cos[i * m + j];
                            double sn = sin[i * m + j];
                            double rc = model[j];
                            double rs = model[m + j];
                            ga += rc * cs + rs * sn;
                            q[j] = a * (rs * cs - rc * sn);
                        }
                        gradient(q, grad, i * d, false);
                        grad[atoms * d + i] = ga;
                    }
                    return 0.5 * value;
                };
        double[] lower = new double[params];
        double[] upper = ProjectedLbfgs.filled(params, Double.POSITIVE_INFINITY);
        Arrays.fill(upper, 0, atoms * d, 1.0);
        return ProjectedLbfgs.minimize(objective, start, lower, upper, maxIterations, tolerance);
    }

    /** Step 1: projected L-BFGS on −⟨A(c), r⟩ over c ∈ [0,1]^d. */
    private double[] maximiseCorrelation(double[] start, double[] residual, int maxIterations) {
        double[] q = new double[m];
        ProjectedLbfgs.Objective objective =
                (c, grad) -> {
                    phases(c, 0, phases);
                    double corr = 0;
                    SinCos.of(phases, m, cosines, sines);
                    for (int j = 0; j < m; j++) {
                        double cs = cosines[j];
                        double sn = sines[j];
                        corr += cs * residual[j] + sn * residual[m + j];
                        q[j] = cs * residual[m + j] - sn * residual[j];
                    }
                    gradient(q, grad, 0, true);
                    return -corr;
                };
        return ProjectedLbfgs.minimize(
                objective,
                start,
                new double[d],
                ProjectedLbfgs.filled(d, 1.0),
                maxIterations,
                STEP_TOLERANCE);
    }

    /**
     * The phases ω_j·c (c = p[offset .. offset + d)) of all m frequencies into {@code out}. Each is
     * summed over t in increasing order from 0, as {@link FrequencyMatrix#phase} does
     * (bit-identical), but t-outer so that the loop over j runs on contiguous memory and
     * vectorises.
     */
    private void phases(double[] p, int offset, double[] out) {
        Arrays.fill(out, 0.0);
        int t = 0;
        for (; t + 2 <= d; t += 2) { // two coordinates per pass over out: half the loads and stores
            double c0 = p[offset + t];
            double c1 = p[offset + t + 1];
            int r0 = t * m;
            int r1 = r0 + m;
            for (int j = 0; j < m; j++) {
                out[j] = (out[j] + omegaT[r0 + j] * c0) + omegaT[r1 + j] * c1;
            }
        }
        for (; t < d; t++) {
            double ct = p[offset + t];
            int row = t * m;
            for (int j = 0; j < m; j++) {
                out[j] += omegaT[row + j] * ct;
            }
        }
    }

    /**
     * grad[offset + t] = Σ_j q_j ω_j[t] (or, with {@code negate}, 0 − q_0 ω_0[t] − q_1 ω_1[t] − …)
     * for t < d, each accumulated over j in increasing order from 0 as the per-frequency
     * accumulation it replaces (bit-identical), four coordinates at a time so that four independent
     * sums advance together over contiguous rows of ω transposed.
     */
    private void gradient(double[] q, double[] grad, int offset, boolean negate) {
        double sign = negate ? -1.0 : 1.0;
        int t = 0;
        for (; t + 4 <= d; t += 4) {
            int r0 = t * m;
            int r1 = r0 + m;
            int r2 = r1 + m;
            int r3 = r2 + m;
            double a0 = 0;
            double a1 = 0;
            double a2 = 0;
            double a3 = 0;
            for (int j = 0; j < m; j++) {
                double qj = sign * q[j];
                a0 += qj * omegaT[r0 + j];
                a1 += qj * omegaT[r1 + j];
                a2 += qj * omegaT[r2 + j];
                a3 += qj * omegaT[r3 + j];
            }
            grad[offset + t] = a0;
            grad[offset + t + 1] = a1;
            grad[offset + t + 2] = a2;
            grad[offset + t + 3] = a3;
        }
        for (; t < d; t++) {
            int r = t * m;
            double a = 0;
            for (int j = 0; j < m; j++) {
                a += sign * q[j] * omegaT[r + j];
            }
            grad[offset + t] = a;
        }
    }

    /** A(c): (cos ω_j·c)_j then (sin ω_j·c)_j. */
    double[] atom(double[] c) {
        double[] a = new double[2 * m];
        phases(c, 0, phases);
        SinCos.of(phases, m, cosines, sines);
        System.arraycopy(cosines, 0, a, 0, m);
        System.arraycopy(sines, 0, a, m, m);
        return a;
    }

    private static double[] residual(double[] z, List<double[]> atoms, double[] weights) {
        double[] r = z.clone();
        for (int i = 0; i < atoms.size(); i++) {
            double[] a = atoms.get(i);
            double w = weights[i];
            for (int j = 0; j < r.length; j++) {
                r[j] -= w * a[j];
            }
        }
        return r;
    }

    private static int argmin(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] < v[best]) {
                best = i;
            }
        }
        return best;
    }
}
