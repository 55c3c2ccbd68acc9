package org.dpclust.config;

/** Window summaries the stream operator can keep, in the fixed order in which they are released. */
public enum Summary {
    /**
     * DP cluster statistics over a public partition (see {@code
     * org.dpclust.kmeans.DpClusterStatistics}).
     */
    STATS("stats"),
    /**
     * A masked random-Fourier-feature sketch, released DP and decoded by CL-OMPR (see {@code
     * org.dpclust.sketch}).
     */
    CKM("ckm"),
    /**
     * HST node counts over a public universe, released by DP-HST initialisation (see {@code
     * org.dpclust.kmedian.HstWindowSummary}).
     */
    DP_HST("dp-hst");

    private final String wireName;

    Summary(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in configuration and in {@code CentroidRelease.algorithm}. */
    public String wireName() {
        return wireName;
    }

    static Summary parse(String option, String value) {
        for (Summary s : values()) {
            if (s.wireName.equals(value)) {
                return s;
            }
        }
        throw new ConfigException(
                option, "unknown summary '" + value + "' (known: stats, ckm, dp-hst)");
    }
}
