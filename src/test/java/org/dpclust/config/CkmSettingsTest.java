package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CkmSettingsTest {
    private static CkmSettings ckm(int m, int r, String law, double sigma, double cf, int reps) {
        return new CkmSettings(m, r, law, sigma, cf, reps);
    }

    @Test
    void acceptsValidSettings() {
        assertEquals(60, ckm(60, 30, "gaussian", 0.3, Double.NaN, 3).m());
        assertEquals(1, ckm(1, 1, "adapted-radius", 1e-3, 0.5, 1).r());
        assertEquals(1 << 16, ckm(1 << 16, 1 << 16, "gaussian", 2, 0.1, 9).m());
    }

    @Test
    void refusesEachInvalidOptionNamingIt() {
        refused("ckm.m: must be in [1, 65536], was 0", () -> ckm(0, 1, "gaussian", 1, 0.5, 3));
        refused(
                "ckm.m: must be in [1, 65536], was 65537",
                () -> ckm(65537, 1, "gaussian", 1, 0.5, 3));
        refused("ckm.r: must be in [1, m = 8], was 9", () -> ckm(8, 9, "gaussian", 1, 0.5, 3));
        refused("ckm.r: must be in [1, m = 8], was 0", () -> ckm(8, 0, "gaussian", 1, 0.5, 3));
        refused(
                "ckm.law: must be gaussian or adapted-radius, was 'uniform'",
                () -> ckm(8, 8, "uniform", 1, 0.5, 3));
        refused(
                "ckm.law: must be gaussian or adapted-radius, was 'null'",
                () -> ckm(8, 8, null, 1, 0.5, 3));
        refused("ckm.sigma: must be a finite number > 0", () -> ckm(8, 8, "gaussian", 0, 0.5, 3));
        refused(
                "ckm.sigma: must be >= 1.0E-100 (below it, the frequencies' phases could overflow)",
                () -> ckm(8, 8, "gaussian", 1e-101, 0.5, 3));
        refused(
                "ckm.sigma: must be a finite number > 0",
                () -> ckm(8, 8, "gaussian", Double.POSITIVE_INFINITY, 0.5, 3));
        refused("ckm.count_fraction: must be in (0, 1)", () -> ckm(8, 8, "gaussian", 1, 1.5, 3));
        refused("ckm.replicates: must be >= 1", () -> ckm(8, 8, "gaussian", 1, 0.5, 0));
        refused(
                "ckm.decode_every: must be >= 1, was 0",
                () -> new CkmSettings(8, 8, "gaussian", 1, 0.5, 3, false, 0));
    }
}
