package org.dpclust.config;

import java.io.Serializable;

/**
 * The privacy unit of a stream and, for devices, the contribution bound c. The constructor
 * validates both ({@link ConfigException} naming {@code privacy_unit} or {@code
 * device_contribution_bound}).
 *
 * @param privacyUnit record or device
 * @param contributionBound c: records kept per device per window; 1 for record units
 */
public record UnitSettings(PrivacyUnit privacyUnit, int contributionBound) implements Serializable {
    /** One record is the unit. */
    public static final UnitSettings RECORD = new UnitSettings(PrivacyUnit.RECORD, 1);

    public UnitSettings {
        ConfigException.check(privacyUnit != null, "privacy_unit", "required");
        ConfigException.check(contributionBound >= 1, "device_contribution_bound", "must be >= 1");
        ConfigException.check(
                privacyUnit == PrivacyUnit.DEVICE || contributionBound == 1,
                "device_contribution_bound",
                "applies only to privacy_unit: device");
    }

    /** Records per unit per window that count: c for devices, 1 for records. */
    public int unitContribution() {
        return privacyUnit == PrivacyUnit.DEVICE ? contributionBound : 1;
    }
}
