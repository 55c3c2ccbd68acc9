package org.dpclust.config;

import static org.dpclust.config.SettingsAssertions.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnitSettingsTest {
    @Test
    void devicesCountTheirBoundRecordsCountOnce() {
        assertEquals(5, new UnitSettings(PrivacyUnit.DEVICE, 5).unitContribution());
        assertEquals(1, UnitSettings.RECORD.unitContribution());
        assertEquals(PrivacyUnit.DEVICE, PrivacyUnit.parse("device"));
        assertEquals(PrivacyUnit.RECORD, PrivacyUnit.parse("record"));
    }

    @Test
    void refusesEachInvalidOptionNamingIt() {
        refused("privacy_unit: required", () -> new UnitSettings(null, 1));
        refused(
                "privacy_unit: must be record or device, was 'household'",
                () -> PrivacyUnit.parse("household"));
        refused(
                "device_contribution_bound: must be >= 1",
                () -> new UnitSettings(PrivacyUnit.DEVICE, 0));
        refused(
                "device_contribution_bound: applies only to privacy_unit: device",
                () -> new UnitSettings(PrivacyUnit.RECORD, 5));
    }
}
