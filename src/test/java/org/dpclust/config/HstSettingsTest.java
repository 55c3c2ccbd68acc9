package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HstSettingsTest {
    @Test
    void acceptsTheDefaultsAndTheLimits() {
        assertEquals(4096, HstSettings.DEFAULT.universe());
        assertEquals(12, HstSettings.DEFAULT.maxLevels());
        assertEquals(1 << 20, new HstSettings(1 << 20, 60).universe());
        assertEquals(1, new HstSettings(1, 1).maxLevels());
        assertEquals(HstSettings.NEAREST, new HstSettings(1, 1).snap());
        assertTrue(new HstSettings(1, 1, HstSettings.DESCENT).descent());
        assertTrue(new HstSettings(1 << 14, 12, HstSettings.WALK).walk());
        assertFalse(new HstSettings(1 << 14, 12, HstSettings.WALK).descent());
        assertTrue(new HstSettings(1 << 16, 12, HstSettings.PIVOT).pivot());
        assertFalse(new HstSettings(1 << 16, 12, HstSettings.PIVOT).walk());
    }

    @Test
    void refusesEachInvalidOptionNamingIt() {
        refused("hst.universe: must be in [k, 2^20], was 0", () -> new HstSettings(0, 12));
        refused(
                "hst.universe: must be in [k, 2^20], was 1048577",
                () -> new HstSettings((1 << 20) + 1, 12));
        refused("hst.max_levels: must be in 1..60, was 0", () -> new HstSettings(4096, 0));
        refused("hst.max_levels: must be in 1..60, was 61", () -> new HstSettings(4096, 61));
        refused(
                "hst.snap: must be nearest, descent, walk or pivot, was 'kd'",
                () -> new HstSettings(4096, 12, "kd"));
        refused(
                "hst.universe: must be at most 16384 with hst.snap walk, was 16385",
                () -> new HstSettings((1 << 14) + 1, 12, HstSettings.WALK));
        refused(
                "hst.universe: must be at most 65536 with hst.snap pivot, was 65537",
                () -> new HstSettings((1 << 16) + 1, 12, HstSettings.PIVOT));
    }
}
