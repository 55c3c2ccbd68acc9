package org.dpclust.config;

/**
 * The smallest valid configuration the tests need: one record-unit {@code stats} stream of
 * dimension 2 in the unit box, k = 3, one-minute windows, ε 1 per release, a daily cap.
 */
public final class TestStreams {
    private TestStreams() {}

    /** The YAML text of a configuration declaring only stream {@code id} with cap {@code cap}. */
    public static String yaml(String id, double cap) {
        return """
                streams:
                  - id: %s
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 3
                    window: PT1M
                    epsilon_per_release: 1.0
                    budget_cap: %s
                    budget_period: P1D
                    privacy_unit: record
                    summaries: [stats]
                """
                .formatted(id, cap);
    }

    /** {@link #yaml} parsed. */
    public static DpclustConfig config(String id, double cap) {
        return ConfigLoader.parse(yaml(id, cap));
    }
}
