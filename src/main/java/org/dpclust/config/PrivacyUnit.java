package org.dpclust.config;

import java.util.Locale;

/**
 * The unit whose presence or absence the releases hide (docs/privacy.md#privacy-unit). RECORD: one
 * telemetry record; DEVICE: one device, of which at most {@code c} records per window count.
 */
public enum PrivacyUnit {
    RECORD,
    DEVICE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The unit named {@code value} in configuration option {@code privacy_unit}. */
    static PrivacyUnit parse(String value) {
        for (PrivacyUnit u : values()) {
            if (u.wireName().equals(value)) {
                return u;
            }
        }
        throw new ConfigException("privacy_unit", "must be record or device, was '" + value + "'");
    }
}
