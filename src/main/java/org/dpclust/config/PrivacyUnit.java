package org.dpclust.config;

import java.util.Locale;

/**
 * The unit whose presence or absence the guarantee hides (DESIGN.md, privacy model). RECORD: one
 * telemetry record; DEVICE: one device, of which at most {@code c} records per window count.
 */
public enum PrivacyUnit {
    RECORD,
    DEVICE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
