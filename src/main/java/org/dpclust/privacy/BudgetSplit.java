package org.dpclust.privacy;

import java.math.BigDecimal;

/**
 * Splitting one release's budget (ε, or ρ under zCDP) between sequentially composed mechanisms
 * without floating-point overspend. All inputs are public.
 *
 * <p>A mechanism given {@code total − part} computed in doubles may receive up to half an ulp more
 * than {@code total − part} in exact arithmetic, so the parts could add up to slightly more than
 * the budget the ledger charged. {@link #remainder} returns the largest double {@code r} with
 * {@code part₁ + … + partₙ + r ≤ total} in exact (real) arithmetic, so sequential composition of
 * the parts and the remainder never exceeds the charged total.
 */
public final class BudgetSplit {
    private BudgetSplit() {}

    /**
     * What is left of {@code total} after {@code parts}: a double r such that the exact sum of the
     * parts and r is at most {@code total} — the largest such double for one part; with several,
     * the doubles' own running difference stepped down until it fits, which may be a few ulps below
     * the largest (never above the total).
     *
     * @throws IllegalArgumentException if the inputs are not finite and positive, or the parts
     *     leave nothing
     */
    public static double remainder(double total, double... parts) {
        if (!(total > 0) || Double.isInfinite(total)) {
            throw new IllegalArgumentException("budget must be finite and > 0, was " + total);
        }
        BigDecimal used = BigDecimal.ZERO;
        double r = total;
        for (double p : parts) {
            if (!(p > 0) || Double.isInfinite(p)) {
                throw new IllegalArgumentException("budget part must be finite and > 0, was " + p);
            }
            used = used.add(new BigDecimal(p));
            r -= p;
        }
        BigDecimal exactTotal = new BigDecimal(total);
        while (r > 0 && used.add(new BigDecimal(r)).compareTo(exactTotal) > 0) {
            r = Math.nextDown(r);
        }
        if (!(r > 0)) {
            throw new IllegalArgumentException(
                    "budget parts leave nothing of " + total + " (parts sum to " + used + ")");
        }
        return r;
    }

    /**
     * One of {@code n} equal shares of {@code total}: the largest double x with n·x ≤ total in
     * exact arithmetic.
     */
    public static double equalShare(double total, int n) {
        if (!(total > 0) || Double.isInfinite(total) || n < 1) {
            throw new IllegalArgumentException("need a finite total > 0 and n >= 1");
        }
        BigDecimal exactTotal = new BigDecimal(total);
        BigDecimal times = BigDecimal.valueOf(n);
        double x = total / n;
        while (new BigDecimal(x).multiply(times).compareTo(exactTotal) > 0) {
            x = Math.nextDown(x);
        }
        return x;
    }
}
