package org.dpclust.config;

import java.io.Serializable;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.Zcdp;

/**
 * How a stream's budget is accounted (docs/zcdp.md): {@code streams[i].accounting} (pure | zcdp,
 * default pure), {@code streams[i].budget_delta} (the δ of the (budget_cap, δ) per-period cap;
 * required for zcdp, not allowed for pure) and {@code streams[i].lifetime_cap} (an ε over all
 * periods, at the same δ under zcdp; optional, +∞ when absent) and {@code
 * streams[i].rho_per_release} (zcdp only: the ρ of each summary's discrete Gaussian release;
 * optional, see {@link #releaseRho}). All public.
 *
 * @param mode pure or zcdp
 * @param delta δ for zcdp, NaN for pure
 * @param lifetimeCap ε cap over the stream's lifetime, +∞ for none
 * @param rhoPerRelease zcdp: the configured ρ of each summary's release, NaN for the even split of
 *     {@link #releaseRho}; NaN for pure
 */
public record BudgetAccounting(
        Accounting mode, double delta, double lifetimeCap, double rhoPerRelease)
        implements Serializable {
    /** Pure accounting without a lifetime cap (the behaviour before zCDP existed). */
    public static final BudgetAccounting PURE =
            new BudgetAccounting(Accounting.PURE, Double.NaN, Double.POSITIVE_INFINITY);

    /** Accounting with the default ρ per release (zcdp: the even split of {@link #releaseRho}). */
    public BudgetAccounting(Accounting mode, double delta, double lifetimeCap) {
        this(mode, delta, lifetimeCap, Double.NaN);
    }

    public BudgetAccounting {
        ConfigException.check(
                Double.isNaN(rhoPerRelease)
                        || (mode == Accounting.ZCDP
                                && rhoPerRelease > 0
                                && Double.isFinite(rhoPerRelease)),
                "rho_per_release",
                "applies only to accounting: zcdp, must be a finite number > 0");
    }

    /**
     * The ρ of each summary's discrete Gaussian release on a zcdp stream: {@link #rhoPerRelease}
     * when configured, else the even split of the period's ρ cap ({@link Zcdp#rhoCap} of
     * (epsilonCap, δ)) over the releases one unit can be in per period: {@code summaries} per
     * window, times the period's windows for device units (a device reports in every window and its
     * releases compose by summing over the period), times 1 for record units (a record is in one
     * window; the ledger composes record units by the per-window maximum). The split is lowered by
     * a relative 10⁻⁹ so that the period's sum of rounded doubles stays below the cap: every
     * scheduled window of a period is released.
     *
     * @throws IllegalStateException under pure accounting (pure releases have no ρ)
     */
    public double releaseRho(
            double epsilonCap, int summaries, long windowsPerPeriod, boolean deviceUnits) {
        if (mode != Accounting.ZCDP) {
            throw new IllegalStateException("a pure stream's releases have no rho");
        }
        if (!Double.isNaN(rhoPerRelease)) {
            return rhoPerRelease;
        }
        double releases = (double) summaries * (deviceUnits ? windowsPerPeriod : 1);
        return Zcdp.rhoCap(epsilonCap, delta) * (1 - 1e-9) / releases;
    }
}
