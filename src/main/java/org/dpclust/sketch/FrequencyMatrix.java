package org.dpclust.sketch;

import java.io.Serializable;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The m frequencies ω_1..ω_m ∈ R^d of a random-Fourier-feature sketch, in coordinates normalised to
 * the unit box: a record x with declared bounds [l, u] is seen as v = (x − l) / (u − l) ∈ [0, 1]^d,
 * and its feature j is e^{i ω_j·v}.
 *
 * <p>Public object. The matrix is a deterministic function of (m, d, σ, law, seed) and of nothing
 * else; the seed is public randomness (it is published with every sketch so consumers can rebuild
 * Ω), never privacy noise, and σ is chosen without reading private data (see {@link
 * #defaultSigma}). Determinism across JVMs: the uniforms come from {@link SplittableRandom}
 * (SplitMix64, specified by its javadoc), Gaussians from Box–Muller with {@link StrictMath}, and
 * the adapted-radius inverse CDF is computed with StrictMath on a fixed grid.
 *
 * <h2>Laws</h2>
 *
 * As the authors' code (pycle {@code drawFrequencies_*}, docs/algorithms.md#frequencies), with Σ =
 * σ²I:
 *
 * <ul>
 *   <li>{@link Law#GAUSSIAN}: ω ~ N(0, σ^{-2} I);
 *   <li>{@link Law#ADAPTED_RADIUS}: ω = (R/σ)·φ with φ uniform on S^{d−1} and p_R(R) ∝ √(R² +
 *       R⁴/4)·e^{−R²/2}, sampled by linear interpolation of the inverse CDF tabulated on 2001
 *       equispaced points of [0, 5] (the cumulative sum of the density, as pycle does).
 * </ul>
 *
 * <h2>Choosing σ and the law</h2>
 *
 * {@link #defaultSigma}(k, d) = k^{−1/d} / (c·√d) with c = {@value #SIGMA_DIVISOR}, in unit-box
 * coordinates, with the law {@link #DEFAULT_LAW}. Rationale: k clusters sharing the unit box occupy
 * a cell of side k^{−1/d} each, and a d-dimensional Gaussian cluster of per-coordinate standard
 * deviation s has radius about s√d, so clusters that fit their cells have s ≈ k^{−1/d}/(c√d);
 * frequencies of norm about 1/s resolve such clusters while the envelope e^{−s²‖ω‖²/2} of their
 * characteristic function keeps the sketch above the noise. The rule reads only the declared bounds
 * (through the normalisation) and k, so it costs no privacy budget. The constant and the law were
 * chosen on the synthetic mixture of paper 003's Figure 3 (a public setting; d = k = 10, box = ±4
 * marginal standard deviations, n = 2·10⁴, noiseless sketches, m = 1000): with the Gaussian law, σ
 * at 0.94–1.09× this default gave relative SSE 1.007–1.027 over four datasets, 1.25× gave 1.034 and
 * 1.9× 1.10, while below 0.8× decoding failed (relative SSE 2.6–17: the sketch falls under the
 * envelope); the adapted-radius law at its best σ (about 0.4–0.5× this default) gave 1.05–1.12. The
 * rule and σ are reported with every release.
 *
 * <p>Layout: Ω is one row-major {@code double[m·d]} (frequency j occupies {@code [j·d, j·d + d)}),
 * so a record's phase ω_j·v is a contiguous dot product without allocation.
 */
public final class FrequencyMatrix implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Divisor c of the default σ rule (see the class comment). */
    public static final double SIGMA_DIVISOR = 1.25;

    /** The law used with {@link #defaultSigma} (see the class comment). */
    public static final Law DEFAULT_LAW = Law.GAUSSIAN;

    /**
     * Frequencies per cluster and dimension in the default size m = 10·k·d (paper 003, Fig. 2–3).
     */
    public static final int FREQUENCIES_PER_KD = 10;

    private static final int RADIUS_GRID = 2001;
    private static final double RADIUS_MAX = 5.0;

    /** Frequency laws; the names are what releases carry in their {@code frequency_law} field. */
    public enum Law {
        GAUSSIAN("gaussian"),
        ADAPTED_RADIUS("adapted-radius"),
        /** Given explicitly (tests, or a matrix rebuilt from another source); no seed. */
        EXPLICIT("explicit");

        private final String label;

        Law(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final int m;
    private final int d;
    private final double[] omega;
    private final Law law;
    private final double sigma;
    private final long seed;

    /**
     * Largest L1 norm of a frequency: the phase ω·v of a point v of the unit box is then at most
     * about this in magnitude at every step of its sum, so every phase and every feature value is
     * finite (a sketch's fixed-point sums rely on it). Far beyond any useful σ (a frequency that
     * large makes every feature noise); reached only by σ below ≈ 1e−290.
     */
    public static final double MAX_ROW_L1 = 1e300;

    private FrequencyMatrix(int m, int d, double[] omega, Law law, double sigma, long seed) {
        for (int j = 0; j < m; j++) {
            double l1 = 0;
            for (int t = 0; t < d; t++) {
                l1 += Math.abs(omega[j * d + t]);
            }
            if (!(l1 <= MAX_ROW_L1)) {
                throw new IllegalArgumentException(
                        "frequency "
                                + j
                                + " has L1 norm "
                                + l1
                                + " > "
                                + MAX_ROW_L1
                                + ": its phases could overflow (is sigma tiny?)");
            }
        }
        this.m = m;
        this.d = d;
        this.omega = omega;
        this.law = law;
        this.sigma = sigma;
        this.seed = seed;
    }

    /** Default number of frequencies, 10·k·d. */
    public static int defaultSize(int k, int d) {
        return Math.multiplyExact(FREQUENCIES_PER_KD, Math.multiplyExact(k, d));
    }

    /** Default σ in unit-box coordinates: k^{−1/d} / ({@value #SIGMA_DIVISOR}·√d). */
    public static double defaultSigma(int k, int d) {
        if (k < 1 || d < 1) {
            throw new IllegalArgumentException("k and d must be >= 1, got k=" + k + ", d=" + d);
        }
        return Math.pow(k, -1.0 / d) / (SIGMA_DIVISOR * Math.sqrt(d));
    }

    /**
     * Draws m frequencies in R^d from {@code law} with scale σ (unit-box coordinates) and a public
     * seed.
     *
     * @throws IllegalArgumentException if m or d < 1, σ is not finite and positive, or law is
     *     EXPLICIT
     */
    public static FrequencyMatrix draw(int m, int d, double sigma, Law law, long seed) {
        if (m < 1 || d < 1) {
            throw new IllegalArgumentException("m and d must be >= 1, got m=" + m + ", d=" + d);
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
        }
        if (law == null || law == Law.EXPLICIT) {
            throw new IllegalArgumentException("law must be GAUSSIAN or ADAPTED_RADIUS");
        }
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        double[] omega = new double[m * d];
        double[] inverseCdf = law == Law.ADAPTED_RADIUS ? adaptedRadiusCdf() : null;
        double[] g = new double[d];
        for (int j = 0; j < m; j++) {
            double norm2 = 0;
            for (int t = 0; t < d; t++) {
                g[t] = gaussian(rng);
                norm2 += g[t] * g[t];
            }
            double factor;
            if (law == Law.GAUSSIAN) {
                factor = 1.0 / sigma;
            } else {
                double radius = radius(inverseCdf, rng.nextDouble());
                factor = norm2 > 0 ? radius / (sigma * Math.sqrt(norm2)) : 0.0;
            }
            for (int t = 0; t < d; t++) {
                omega[j * d + t] = g[t] * factor;
            }
        }
        return new FrequencyMatrix(m, d, omega, law, sigma, seed);
    }

    /** A matrix given row by row (m rows of length d); law {@link Law#EXPLICIT}, σ NaN, seed 0. */
    public static FrequencyMatrix of(double[][] rows) {
        if (rows.length == 0 || rows[0].length == 0) {
            throw new IllegalArgumentException("need at least one frequency of positive dimension");
        }
        int d = rows[0].length;
        double[] omega = new double[rows.length * d];
        for (int j = 0; j < rows.length; j++) {
            if (rows[j].length != d) {
                throw new IllegalArgumentException(
                        "row " + j + " has length " + rows[j].length + ", expected " + d);
            }
            for (int t = 0; t < d; t++) {
                if (!Double.isFinite(rows[j][t])) {
                    throw new IllegalArgumentException(
                            "frequency (" + j + ", " + t + ") is not finite");
                }
            }
            System.arraycopy(rows[j], 0, omega, j * d, d);
        }
        return new FrequencyMatrix(rows.length, d, omega, Law.EXPLICIT, Double.NaN, 0L);
    }

    /**
     * Standard normal by Box–Muller (one value per call; the second one is discarded for
     * simplicity).
     */
    private static double gaussian(SplittableRandom rng) {
        double u1 = 1.0 - rng.nextDouble(); // (0, 1]
        double u2 = rng.nextDouble();
        return StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * Math.PI * u2);
    }

    /** Normalised CDF of the adapted-radius density on the grid R_i = 5 i / 2000. */
    static double[] adaptedRadiusCdf() {
        double[] cdf = new double[RADIUS_GRID];
        double acc = 0;
        for (int i = 0; i < RADIUS_GRID; i++) {
            double r = RADIUS_MAX * i / (RADIUS_GRID - 1);
            acc += StrictMath.sqrt(r * r + r * r * r * r / 4.0) * StrictMath.exp(-r * r / 2.0);
            cdf[i] = acc;
        }
        for (int i = 0; i < RADIUS_GRID; i++) {
            cdf[i] /= acc;
        }
        return cdf;
    }

    /** Inverse CDF by linear interpolation between grid points (numpy.interp semantics). */
    static double radius(double[] cdf, double u) {
        int pos = Arrays.binarySearch(cdf, u);
        if (pos >= 0) {
            return RADIUS_MAX * pos / (RADIUS_GRID - 1);
        }
        int hi = -pos - 1;
        if (hi == 0) {
            return 0.0;
        }
        if (hi >= RADIUS_GRID) {
            return RADIUS_MAX;
        }
        double lo = cdf[hi - 1];
        double w = (u - lo) / (cdf[hi] - lo);
        return RADIUS_MAX * (hi - 1 + w) / (RADIUS_GRID - 1);
    }

    public int size() {
        return m;
    }

    public int dimension() {
        return d;
    }

    public Law law() {
        return law;
    }

    /** σ in unit-box coordinates (NaN for explicit matrices). */
    public double sigma() {
        return sigma;
    }

    public long seed() {
        return seed;
    }

    /** Component t of frequency j. */
    public double get(int j, int t) {
        return omega[j * d + t];
    }

    /** The phase ω_j·v of a unit-box point v (plain loop in index order, so it is reproducible). */
    public double phase(int j, double[] v) {
        int o = j * d;
        double s = 0;
        for (int t = 0; t < d; t++) {
            s += omega[o + t] * v[t];
        }
        return s;
    }

    /**
     * The phases ω_j·v of frequencies j = 0 .. out.length − 1 into {@code out}, each summed in
     * index order exactly as {@link #phase} does (bit-identical), without allocation.
     */
    public void phases(double[] v, double[] out) {
        phasesOfRange(0, out.length, v, out, 0);
    }

    /**
     * The phases ω_{rows[i]}·v into {@code out[i]}, i &lt; rows.length, as {@link #phase}
     * (bit-identical).
     */
    public void phases(int[] rows, double[] v, double[] out) {
        phases(rows, 0, rows.length, v, out);
    }

    /** The phases ω_{rows[from+i]}·v into {@code out[i]}, i &lt; n, as {@link #phase}. */
    public void phases(int[] rows, int from, int n, double[] v, double[] out) {
        int i = 0;
        for (; i + 1 < n; i += 2) { // two rows side by side: see phasesOfRange
            int o = rows[from + i] * d;
            int p = rows[from + i + 1] * d;
            double s = 0;
            double u = 0;
            for (int t = 0; t < d; t++) {
                s += omega[o + t] * v[t];
                u += omega[p + t] * v[t];
            }
            out[i] = s;
            out[i + 1] = u;
        }
        if (i < n) {
            out[i] = phase(rows[from + i], v);
        }
    }

    /**
     * The phases ω_{first+i}·v of n consecutive frequencies into {@code out[at + i]}, i &lt; n, as
     * {@link #phase} (bit-identical).
     */
    public void phasesOfRange(int first, int n, double[] v, double[] out, int at) {
        // Two rows side by side, each still summed in index order (bit-identical): the dimension
        // is not a compile-time constant, and one row's chain of d dependent additions per loop
        // trip left the update ≈ 200 ns per record (r = 100, d = 10) behind a loop whose d is
        // constant; two independent chains per trip recover nearly all of it
        // (docs/performance.md#block-masks).
        int i = 0;
        int o = first * d;
        for (; i + 1 < n; i += 2, o += 2 * d) {
            double s = 0;
            double u = 0;
            for (int t = 0; t < d; t++) {
                s += omega[o + t] * v[t];
                u += omega[o + d + t] * v[t];
            }
            out[at + i] = s;
            out[at + i + 1] = u;
        }
        if (i < n) {
            out[at + i] = phase(first + i, v);
        }
    }

    /** A copy of the row-major m×d array. */
    public double[] toArray() {
        return omega.clone();
    }

    /**
     * True when both matrices have the same shape and bit-identical frequencies (law and seed
     * aside).
     */
    public boolean sameFrequencies(FrequencyMatrix other) {
        return other != null && other.m == m && other.d == d && Arrays.equals(other.omega, omega);
    }
}
