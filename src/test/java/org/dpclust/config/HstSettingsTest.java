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
        assertEquals(HstSettings.PIVOT, HstSettings.DEFAULT.snap());
        assertEquals(1 << 20, new HstSettings(1 << 20, 60, HstSettings.NEAREST).universe());
        assertEquals(1, new HstSettings(1, 1).maxLevels());
        assertEquals(HstSettings.PIVOT, new HstSettings(1, 1).snap());
        assertTrue(new HstSettings(1 << 16, 12).pivot());
        assertFalse(new HstSettings(1 << 16, 12, HstSettings.NEAREST).pivot());
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
                "hst.snap: must be pivot or nearest, was 'kd'",
                () -> new HstSettings(4096, 12, "kd"));
        for (String removed : new String[] {"descent", "walk"}) {
            refused(
                    "hst.snap: must be pivot or nearest, was '" + removed + "'",
                    () -> new HstSettings(4096, 12, removed));
        }
        // the default rule refuses a universe above its cap, telling the user what to set
        refused(
                "hst.universe: must be at most 65536 with hst.snap pivot (the default), was 65537;"
                        + " set hst.snap: nearest for a larger universe",
                () -> new HstSettings((1 << 16) + 1, 12));
    }
}
