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
}
