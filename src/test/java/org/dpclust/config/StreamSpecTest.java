package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.dpclust.kmeans.DpClusterStatistics.Update;
import org.junit.jupiter.api.Test;

class StreamSpecTest {
    /** The components of a valid two-dimensional stats stream with k = 3, changed per test. */
    private static final class Args {
        String id = "s1";
        int d = 2;
        double[] lower = {0, 0};
        double[] upper = {1, 2};
        int k = 3;
        Duration window = Duration.ofSeconds(10);
        List<Summary> summaries = List.of(Summary.STATS);
        BudgetSettings budget = new BudgetSettings(0.5, 10, Duration.ofDays(1));
        UnitSettings unit = UnitSettings.RECORD;
        StatsSettings stats = new StatsSettings(64, Double.NaN, Update.MEAN);
        CkmSettings ckm = new CkmSettings(60, 60, "gaussian", 0.3, Double.NaN, 3);
        HstSettings hst = HstSettings.DEFAULT;
        double[][] init = null;
        int salt = 1;

        StreamSpec build() {
            return new StreamSpec(
                    id,
                    d,
                    lower,
                    upper,
                    k,
                    window,
                    summaries,
                    budget,
                    unit,
                    stats,
                    ckm,
                    hst,
                    7L,
                    init,
                    salt,
                    BudgetAccounting.PURE,
                    RunningSettings.NONE);
        }
    }

    private static StreamSpec with(java.util.function.Consumer<Args> change) {
        Args a = new Args();
        change.accept(a);
        return a.build();
    }

    @Test
    void aValidSpecBuiltInCodeKeepsItsValuesBehindTheOldAccessors() {
        StreamSpec s =
                with(
                        a -> {
                            a.summaries = List.of(Summary.DP_HST, Summary.STATS, Summary.STATS);
                            a.unit = new UnitSettings(PrivacyUnit.DEVICE, 4);
                        });
        assertEquals(List.of(Summary.STATS, Summary.DP_HST), s.summaries());
        assertEquals(0.5, s.epsilonPerRelease());
        assertEquals(10, s.cap());
        assertEquals(Duration.ofDays(1), s.budgetPeriod());
        assertEquals(PrivacyUnit.DEVICE, s.privacyUnit());
        assertEquals(4, s.contributionBound());
        assertEquals(4, s.unitContribution());
        assertEquals(64, s.statsCells());
        assertEquals(Update.MEAN, s.statsUpdate());
        assertEquals(4096, s.hstUniverse());
        assertEquals(12, s.hstMaxLevels());
        assertEquals(20_000, s.windowStart(29_999));
    }

    @Test
    void theSpecCopiesItsArrays() {
        double[] lower = {0, 0};
        StreamSpec s = with(a -> a.lower = lower);
        lower[0] = 5;
        assertArrayEquals(new double[] {0, 0}, s.lower());
        assertNotSame(lower, s.lower());
    }

    @Test
    void anInvalidValueInCodeThrowsNamingTheOption() {
        assertThrows(ConfigException.class, () -> with(a -> a.k = 0));
        refused("id: must be non-blank and must not contain '|'", () -> with(a -> a.id = "a|b"));
        refused("id: required", () -> with(a -> a.id = null));
        refused("dimension: required, must be >= 1", () -> with(a -> a.d = 0));
        refused("lower: must be a list of 2 numbers", () -> with(a -> a.lower = new double[1]));
        refused("upper: required", () -> with(a -> a.upper = null));
        refused(
                "lower[1]: must be a finite number",
                () -> with(a -> a.lower = new double[] {0, Double.NaN}));
        refused(
                "upper[1]: must be greater than lower[1] = 0.0",
                () -> with(a -> a.upper = new double[] {1, 0}));
        refused("k: required, between 1 and 10000", () -> with(a -> a.k = 0));
        refused("k: required, between 1 and 10000", () -> with(a -> a.k = 10_001));
        refused("window: required", () -> with(a -> a.window = null));
        refused(
                "window: must be positive, was PT-1S",
                () -> with(a -> a.window = Duration.ofSeconds(-1)));
        refused("summaries: must be a non-empty list", () -> with(a -> a.summaries = List.of()));
    }

    @Test
    void crossFieldRulesNameTheOption() {
        refused(
                "budget_period: must be a whole number of windows (PT7S)",
                () -> with(a -> a.window = Duration.ofSeconds(7)));
        refused(
                "stats.cells: must be >= k (3)",
                () -> with(a -> a.stats = new StatsSettings(2, Double.NaN, Update.MEAN)));
        refused(
                "hst.universe: must be in [k, 2^20], was 2",
                () -> with(a -> a.hst = new HstSettings(2, 12)));
        refused(
                "initial_centroids: must be a list of k = 3 points",
                () -> with(a -> a.init = new double[2][2]));
        refused(
                "initial_centroids[2]: must be a list of 2 numbers",
                () -> with(a -> a.init = new double[][] {{0, 0}, {0, 0}, {0}}));
        refused("salt_buckets: must be in [1, 1024], was 0", () -> with(a -> a.salt = 0));
    }

    @Test
    void theLoaderPlacesRelativePathsUnderTheStream() {
        String yaml = TestStreams.yaml("s1", 10);
        ConfigException e =
                assertThrows(
                        ConfigException.class,
                        () -> ConfigLoader.parse(yaml + "    stats: {cells: 2}\n"));
        assertEquals("streams[0].stats.cells: must be >= k (3)", e.getMessage());
        e =
                assertThrows(
                        ConfigException.class,
                        () -> ConfigLoader.parse(yaml + "    ckm: {m: 8, r: 9}\n"));
        assertEquals("streams[0].ckm.r: must be in [1, m = 8], was 9", e.getMessage());
        e =
                assertThrows(
                        ConfigException.class,
                        () ->
                                ConfigLoader.parse(
                                        yaml.replace("budget_cap: 10.0", "budget_cap: 0")));
        assertEquals(
                "streams[0].budget_cap: required, must be a finite number > 0", e.getMessage());
        e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml + "    windw: x\n"));
        assertEquals("streams[0].windw", e.option());
    }
}
