package org.dpclust.config;

import java.io.Serializable;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.Zcdp;

/**
 * How a stream's budget is accounted (docs/zcdp.md): {@code streams[i].accounting} (pure | zcdp,
 * default pure), {@code streams[i].budget_delta} (the δ of the (budget_cap, δ) per-period cap;
 * required for zcdp, not allowed for pure) and {@code streams[i].lifetime_cap} (an ε over all
 * periods, at the same δ under zcdp; optional, +∞ when absent). All public.
 *
 * @param mode pure or zcdp
 * @param delta δ for zcdp, NaN for pure
 * @param lifetimeCap ε cap over the stream's lifetime, +∞ for none
 */
public record BudgetAccounting(Accounting mode, double delta, double lifetimeCap)
        implements Serializable {
    /** Pure accounting without a lifetime cap (the behaviour before zCDP existed). */
    public static final BudgetAccounting PURE =
            new BudgetAccounting(Accounting.PURE, Double.NaN, Double.POSITIVE_INFINITY);

    /**
     * A ledger for a stream with per-period cap {@code epsilonCap}: pure, or zCDP with both caps
     * converted to ρ at δ by {@link Zcdp#rhoCap}.
     */
    public PrivacyLedger newLedger(double epsilonCap, long periodMillis, boolean deviceUnits) {
        if (mode == Accounting.ZCDP) {
            return PrivacyLedger.zcdp(epsilonCap, delta, periodMillis, deviceUnits, lifetimeCap);
        }
        return new PrivacyLedger(
                epsilonCap, periodMillis, deviceUnits, Accounting.PURE, Double.NaN, lifetimeCap);
    }
}
