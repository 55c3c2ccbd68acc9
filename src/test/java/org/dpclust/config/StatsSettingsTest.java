package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.kmeans.DpClusterStatistics.Update;
import org.junit.jupiter.api.Test;

class StatsSettingsTest {
    @Test
    void acceptsAPartitionWithDerivedOrGivenCountShare() {
        assertEquals(64, new StatsSettings(64, Double.NaN, Update.MEAN).cells());
        assertEquals(0.25, new StatsSettings(1, 0.25, Update.EXPDP_ZONE).countFraction());
    }

    @Test
    void refusesEachInvalidOptionNamingIt() {
        refused("stats.cells: must be >= 1, was 0", () -> new StatsSettings(0, 0.5, Update.MEAN));
        refused(
                "stats.count_fraction: must be in (0, 1)",
                () -> new StatsSettings(64, 1.0, Update.MEAN));
        refused(
                "stats.count_fraction: must be in (0, 1)",
                () -> new StatsSettings(64, 0.0, Update.MEAN));
        refused("stats.update: required", () -> new StatsSettings(64, 0.5, null));
    }

    @Test
    void updatesAreReadByTheirWireName() {
        assertEquals(Update.EXPDP_ZONE, StatsSettings.update("expdp-zone"));
        assertEquals(Update.MEAN, StatsSettings.update("mean"));
        refused(
                "stats.update: must be mean or expdp-zone, was 'median'",
                () -> StatsSettings.update("median"));
    }

    @Test
    void theDefaultPartitionGrowsWithK() {
        assertEquals(64, StatsSettings.defaultCells(1));
        assertEquals(160, StatsSettings.defaultCells(10));
    }
}
