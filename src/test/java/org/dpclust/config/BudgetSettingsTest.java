package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BudgetSettingsTest {
    private static final Duration DAY = Duration.ofDays(1);

    @Test
    void acceptsAPositiveBudget() {
        BudgetSettings b = new BudgetSettings(0.5, 10, DAY);
        assertEquals(0.5, b.epsilonPerRelease());
        assertEquals(86_400_000L, b.periodMillis());
    }

    @Test
    void refusesEachInvalidOptionNamingIt() {
        String eps = "epsilon_per_release: required, must be a finite number > 0";
        refused(eps, () -> new BudgetSettings(Double.NaN, 10, DAY));
        refused(eps, () -> new BudgetSettings(0, 10, DAY));
        refused(eps, () -> new BudgetSettings(Double.POSITIVE_INFINITY, 10, DAY));
        String cap = "budget_cap: required, must be a finite number > 0";
        refused(cap, () -> new BudgetSettings(1, Double.NaN, DAY));
        refused(cap, () -> new BudgetSettings(1, -1, DAY));
        refused("budget_period: required", () -> new BudgetSettings(1, 10, null));
        refused(
                "budget_period: must be positive, was PT0S",
                () -> new BudgetSettings(1, 10, Duration.ZERO));
    }
}
