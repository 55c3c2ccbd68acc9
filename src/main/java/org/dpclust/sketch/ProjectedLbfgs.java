package org.dpclust.sketch;

import java.util.Arrays;

/**
 * Box-constrained minimisation by projected limited-memory BFGS, a compact variant of L-BFGS-B
 * (Byrd, Lu, Nocedal, Zhu 1995) in the form used by CL-OMPR's reference implementation (scipy
 * L-BFGS-B with ftol): at every iterate the variables held at a bound by the gradient are frozen,
 * the L-BFGS two-loop recursion gives a direction on the free variables, and a projected
 * backtracking (Armijo) line search keeps every trial point inside the box.
 *
 * <p>Contract: minimises a differentiable f over {lower ≤ x ≤ upper} (bounds may be infinite) from
 * the projection of x0, returning a feasible point whose value is never above f(P(x0)). It stops
 * after {@code maxIterations} iterations, when the relative decrease (f_k − f_{k+1}) / max(|f_k|,
 * |f_{k+1}|, 1e-300) falls to {@code ftol} or below (scipy's criterion without its floor of 1), or
 * when the projected gradient vanishes. Deterministic, no randomness, no allocation inside the line
 * search beyond work arrays created per call.
 */
public final class ProjectedLbfgs {
    private static final int MEMORY = 10;
    private static final double ARMIJO = 1e-4;
    private static final int MAX_BACKTRACKS = 40;

    private ProjectedLbfgs() {}

    /** A differentiable objective: returns f(x) and writes ∇f(x) into {@code gradient}. */
    @FunctionalInterface
    public interface Objective {
        double valueAndGradient(double[] x, double[] gradient);
    }

    /** Minimises {@code f} over the box; see the class comment. Returns a new array. */
    public static double[] minimize(
            Objective f,
            double[] x0,
            double[] lower,
            double[] upper,
            int maxIterations,
            double ftol) {
        int n = x0.length;
        if (lower.length != n || upper.length != n) {
            throw new IllegalArgumentException("bounds must have the length of x0");
        }
        double[] x = x0.clone();
        project(x, lower, upper);
        double[] g = new double[n];
        double fx = f.valueAndGradient(x, g);
        double[][] s = new double[MEMORY][n];
        double[][] y = new double[MEMORY][n];
        double[] rho = new double[MEMORY];
        double[] alpha = new double[MEMORY];
        int stored = 0;
        int head = 0;
        double[] dir = new double[n];
        double[] xNew = new double[n];
        double[] gNew = new double[n];
        boolean[] free = new boolean[n];
        for (int it = 0; it < maxIterations; it++) {
            double pgNorm = 0;
            for (int i = 0; i < n; i++) {
                free[i] = !((x[i] <= lower[i] && g[i] > 0) || (x[i] >= upper[i] && g[i] < 0));
                if (free[i]) {
                    pgNorm = Math.max(pgNorm, Math.abs(g[i]));
                }
            }
            if (pgNorm == 0) {
                break;
            }
            // two-loop recursion on the free variables
            for (int i = 0; i < n; i++) {
                dir[i] = free[i] ? -g[i] : 0.0;
            }
            for (int c = 0; c < stored; c++) {
                int idx = Math.floorMod(head - 1 - c, MEMORY);
                alpha[idx] = rho[idx] * dotFree(s[idx], dir, free);
                for (int i = 0; i < n; i++) {
                    if (free[i]) {
                        dir[i] -= alpha[idx] * y[idx][i];
                    }
                }
            }
            if (stored > 0) {
                int last = Math.floorMod(head - 1, MEMORY);
                double gamma =
                        dotFree(s[last], y[last], free)
                                / Math.max(dotFree(y[last], y[last], free), 1e-300);
                if (gamma > 0) {
                    for (int i = 0; i < n; i++) {
                        dir[i] *= gamma;
                    }
                }
            }
            for (int c = stored - 1; c >= 0; c--) {
                int idx = Math.floorMod(head - 1 - c, MEMORY);
                double beta = rho[idx] * dotFree(y[idx], dir, free);
                for (int i = 0; i < n; i++) {
                    if (free[i]) {
                        dir[i] += (alpha[idx] - beta) * s[idx][i];
                    }
                }
            }
            double slope = dotFree(dir, g, free);
            if (!(slope < 0)) { // not a descent direction: fall back to steepest descent and forget
                stored = 0;
                for (int i = 0; i < n; i++) {
                    dir[i] = free[i] ? -g[i] : 0.0;
                }
            }
            double step = 1.0;
            if (stored == 0) { // first step: move at most 0.1 in the largest coordinate (box scale)
                double maxDir = 0;
                for (double v : dir) {
                    maxDir = Math.max(maxDir, Math.abs(v));
                }
                step = Math.min(1.0, 0.1 / maxDir);
            }
            double fNew = Double.NaN;
            boolean accepted = false;
            for (int bt = 0; bt < MAX_BACKTRACKS; bt++) {
                for (int i = 0; i < n; i++) {
                    xNew[i] = x[i] + step * dir[i];
                }
                project(xNew, lower, upper);
                double decrease = 0;
                for (int i = 0; i < n; i++) {
                    decrease += g[i] * (xNew[i] - x[i]);
                }
                fNew = f.valueAndGradient(xNew, gNew);
                if (fNew <= fx + ARMIJO * decrease) {
                    accepted = true;
                    break;
                }
                step *= 0.5;
            }
            if (!accepted) {
                break;
            }
            double sy = 0;
            double ss = 0;
            double yy = 0;
            for (int i = 0; i < n; i++) {
                s[head][i] = xNew[i] - x[i];
                y[head][i] = gNew[i] - g[i];
                sy += s[head][i] * y[head][i];
                ss += s[head][i] * s[head][i];
                yy += y[head][i] * y[head][i];
            }
            if (sy > 1e-10 * Math.sqrt(ss * yy)) {
                rho[head] = 1.0 / sy;
                head = (head + 1) % MEMORY;
                stored = Math.min(stored + 1, MEMORY);
            }
            double previous = fx;
            System.arraycopy(xNew, 0, x, 0, n);
            System.arraycopy(gNew, 0, g, 0, n);
            fx = fNew;
            if (previous - fx
                    <= ftol * Math.max(Math.max(Math.abs(previous), Math.abs(fx)), 1e-300)) {
                break;
            }
        }
        return x;
    }

    /** Clamps x into [lower, upper] in place. */
    static void project(double[] x, double[] lower, double[] upper) {
        for (int i = 0; i < x.length; i++) {
            x[i] = Math.min(upper[i], Math.max(lower[i], x[i]));
        }
    }

    private static double dotFree(double[] a, double[] b, boolean[] free) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            if (free[i]) {
                s += a[i] * b[i];
            }
        }
        return s;
    }

    /** Fills a bounds array of length n with {@code value}. */
    static double[] filled(int n, double value) {
        double[] a = new double[n];
        Arrays.fill(a, value);
        return a;
    }
}
