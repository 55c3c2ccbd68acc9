package org.dpclust.synthetic;

import java.util.SplittableRandom;

/**
 * Synthetic telemetry for the demo, tests and evaluations: a mixture of k isotropic Gaussians in a
 * box whose centres drift along circles as windows pass. Everything is public randomness from a
 * seed; the true centres of every window are known, so releases can be compared with them.
 */
public final class DriftingGaussianMixture {
    private final double[] lower;
    private final double[] upper;
    private final int k;
    private final double sigma;
    private final double driftPerWindow;
    private final double[][] anchors;
    private final double[] phases;
    private final long seed;

    /**
     * @param sigma standard deviation as a fraction of the box width
     * @param driftPerWindow angle (radians) each centre moves along its circle per window
     */
    public DriftingGaussianMixture(
            double[] lower, double[] upper, int k, double sigma, double driftPerWindow, long seed) {
        this.lower = lower.clone();
        this.upper = upper.clone();
        this.k = k;
        this.sigma = sigma;
        this.driftPerWindow = driftPerWindow;
        this.seed = seed;
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        int d = lower.length;
        anchors = new double[k][d];
        phases = new double[k];
        // anchors spread on a jittered grid in the inner 60% of the box, so clusters are separated
        int side = (int) Math.ceil(Math.pow(k, 1.0 / Math.min(d, 2)));
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < d; j++) {
                double cell = j == 0 ? i % side : j == 1 ? i / side : rng.nextDouble() * side;
                double u = 0.2 + 0.6 * (cell + 0.5) / side + (rng.nextDouble() - 0.5) * 0.1 / side;
                anchors[i][j] = lower[j] + u * (upper[j] - lower[j]);
            }
            phases[i] = rng.nextDouble() * 2 * Math.PI;
        }
    }

    public int k() {
        return k;
    }

    public int dimension() {
        return lower.length;
    }

    /** True centres in window {@code w}. */
    public double[][] centers(int window) {
        int d = lower.length;
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            double angle = phases[i] + driftPerWindow * window;
            for (int j = 0; j < d; j++) {
                double radius = 0.04 * (upper[j] - lower[j]);
                double offset = j % 2 == 0 ? Math.cos(angle) : Math.sin(angle);
                c[i][j] = anchors[i][j] + radius * offset;
            }
        }
        return c;
    }

    /**
     * {@code n} points of window {@code w} (row i belongs to component i % k), reproducible from
     * the seed.
     */
    public double[][] sample(int window, int n) {
        SplittableRandom rng =
                new SplittableRandom(seed * 31 + window); // public randomness (not privacy noise)
        double[][] c = centers(window);
        int d = lower.length;
        double[][] x = new double[n][d];
        for (int r = 0; r < n; r++) {
            double[] mu = c[r % k];
            for (int j = 0; j < d; j++) {
                x[r][j] = mu[j] + sigma * (upper[j] - lower[j]) * gaussian(rng);
            }
        }
        return x;
    }

    private static double gaussian(SplittableRandom rng) {
        // Box–Muller on public randomness
        double u = 1.0 - rng.nextDouble();
        double v = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
