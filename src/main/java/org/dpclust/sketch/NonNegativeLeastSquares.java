package org.dpclust.sketch;

/**
 * Non-negative least squares, min ‖A x − b‖₂ subject to x ≥ 0, by the active-set algorithm of
 * Lawson and Hanson (Solving Least Squares Problems, 1974, ch. 23), run on the normal equations
 * (AᵀA, Aᵀb) because the problems of CL-OMPR are tall and thin (2m rows, at most k + 1 columns).
 *
 * <p>Contract: returns the exact NNLS solution up to floating-point error for full-column-rank A;
 * the passive-set subproblems are solved by Gaussian elimination with partial pivoting, with a
 * ridge of 1e−12·max diag(AᵀA) so that duplicated columns (two identical atoms) do not make them
 * singular. The loop stops after 3p outer iterations, as in the usual implementations. Public
 * computation (CL-OMPR is post-processing); no randomness.
 */
public final class NonNegativeLeastSquares {
    private static final double RIDGE = 1e-12;

    private NonNegativeLeastSquares() {}

    /**
     * Solves NNLS for A given by its columns ({@code columns[i]} is column i, all of length n).
     *
     * @return x ≥ 0 of length columns.length
     */
    public static double[] solve(double[][] columns, double[] b) {
        int p = columns.length;
        double[][] gram = new double[p][p];
        double[] atb = new double[p];
        for (int i = 0; i < p; i++) {
            if (columns[i].length != b.length) {
                throw new IllegalArgumentException(
                        "column "
                                + i
                                + " has length "
                                + columns[i].length
                                + ", expected "
                                + b.length);
            }
            atb[i] = dot(columns[i], b);
            for (int j = 0; j <= i; j++) {
                gram[i][j] = dot(columns[i], columns[j]);
                gram[j][i] = gram[i][j];
            }
        }
        return solveNormal(gram, atb);
    }

    /** Lawson–Hanson on the normal equations G = AᵀA, h = Aᵀb. */
    public static double[] solveNormal(double[][] gram, double[] atb) {
        int p = atb.length;
        double maxDiag = 0;
        for (int i = 0; i < p; i++) {
            maxDiag = Math.max(maxDiag, gram[i][i]);
        }
        double tol = 1e-12 * Math.max(1.0, maxDiag) * Math.max(1, p);
        double[] x = new double[p];
        boolean[] passive = new boolean[p];
        double[] w = gradient(gram, atb, x);
        for (int outer = 0; outer < 3 * p; outer++) {
            int best = -1;
            for (int j = 0; j < p; j++) {
                if (!passive[j] && w[j] > tol && (best < 0 || w[j] > w[best])) {
                    best = j;
                }
            }
            if (best < 0) {
                break;
            }
            passive[best] = true;
            while (true) {
                double[] s =
                        solvePassive(
                                gram, atb, passive, RIDGE * Math.max(maxDiag, Double.MIN_NORMAL));
                double step = 1.0;
                boolean feasible = true;
                for (int i = 0; i < p; i++) {
                    if (passive[i] && s[i] <= 0) {
                        feasible = false;
                        double denom = x[i] - s[i];
                        if (denom > 0) {
                            step = Math.min(step, x[i] / denom);
                        }
                    }
                }
                if (feasible) {
                    System.arraycopy(s, 0, x, 0, p);
                    break;
                }
                boolean any = false;
                for (int i = 0; i < p; i++) {
                    if (passive[i]) {
                        x[i] += step * (s[i] - x[i]);
                        if (x[i] <= 1e-15 * Math.max(1.0, Math.abs(s[i]))) {
                            x[i] = 0;
                            passive[i] = false;
                        } else {
                            any = true;
                        }
                    }
                }
                if (!any) {
                    break;
                }
            }
            w = gradient(gram, atb, x);
        }
        return x;
    }

    /** w = h − G x (the negative gradient of ½‖Ax − b‖²). */
    private static double[] gradient(double[][] gram, double[] atb, double[] x) {
        int p = atb.length;
        double[] w = new double[p];
        for (int i = 0; i < p; i++) {
            double s = atb[i];
            for (int j = 0; j < p; j++) {
                s -= gram[i][j] * x[j];
            }
            w[i] = s;
        }
        return w;
    }

    /** Unconstrained least squares on the passive set (zeros elsewhere). */
    private static double[] solvePassive(
            double[][] gram, double[] atb, boolean[] passive, double ridge) {
        int p = atb.length;
        int[] idx = new int[p];
        int q = 0;
        for (int i = 0; i < p; i++) {
            if (passive[i]) {
                idx[q++] = i;
            }
        }
        double[][] a = new double[q][q + 1];
        for (int i = 0; i < q; i++) {
            for (int j = 0; j < q; j++) {
                a[i][j] = gram[idx[i]][idx[j]];
            }
            a[i][i] += ridge;
            a[i][q] = atb[idx[i]];
        }
        double[] sol = gaussianElimination(a, q);
        double[] s = new double[p];
        for (int i = 0; i < q; i++) {
            s[idx[i]] = sol[i];
        }
        return s;
    }

    private static double[] gaussianElimination(double[][] a, int q) {
        for (int col = 0; col < q; col++) {
            int piv = col;
            for (int i = col + 1; i < q; i++) {
                if (Math.abs(a[i][col]) > Math.abs(a[piv][col])) {
                    piv = i;
                }
            }
            double[] t = a[col];
            a[col] = a[piv];
            a[piv] = t;
            double diag = a[col][col];
            if (diag == 0) {
                continue;
            }
            for (int i = col + 1; i < q; i++) {
                double f = a[i][col] / diag;
                if (f != 0) {
                    for (int j = col; j <= q; j++) {
                        a[i][j] -= f * a[col][j];
                    }
                }
            }
        }
        double[] x = new double[q];
        for (int i = q - 1; i >= 0; i--) {
            double s = a[i][q];
            for (int j = i + 1; j < q; j++) {
                s -= a[i][j] * x[j];
            }
            x[i] = a[i][i] == 0 ? 0 : s / a[i][i];
        }
        return x;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
