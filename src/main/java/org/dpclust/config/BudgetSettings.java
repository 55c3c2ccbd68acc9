package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;

/**
 * A stream's privacy budget: what each release costs and what one unit may lose per period. The
 * constructor validates every option ({@link ConfigException} naming it); that the period is a
 * whole number of windows is checked by {@link StreamSpec}.
 *
 * @param epsilonPerRelease epsilon of each summary's release in a window, a finite number &gt; 0
 * @param cap budget cap per budget period, a finite number &gt; 0
 * @param period event-time budget period, aligned to the epoch, positive
 */
public record BudgetSettings(double epsilonPerRelease, double cap, Duration period)
        implements Serializable {
    /** The default budget period: one day. */
    public static final Duration DEFAULT_PERIOD = Duration.ofDays(1);

    public BudgetSettings {
        ConfigException.check(
                ConfigException.positiveFinite(epsilonPerRelease),
                "epsilon_per_release",
                "required, must be a finite number > 0");
        ConfigException.check(
                ConfigException.positiveFinite(cap),
                "budget_cap",
                "required, must be a finite number > 0");
        ConfigException.check(period != null, "budget_period", "required");
        ConfigException.check(
                !period.isZero() && !period.isNegative(),
                "budget_period",
                "must be positive, was " + period);
    }

    public long periodMillis() {
        return period.toMillis();
    }
}
