package org.dpclust.config;

import java.io.Serializable;
import java.util.Arrays;
import org.dpclust.kmeans.DpClusterStatistics;

/**
 * Public settings of a stream's {@code stats} summary (DP cluster statistics over a public
 * partition). The constructor validates every option ({@link ConfigException} naming {@code
 * stats.<option>}); that the partition has at least k cells is checked by {@link StreamSpec}.
 *
 * @param cells size of the public partition, &gt;= 1 (and &gt;= k in a stream)
 * @param countFraction share of a release's ε spent on counts; NaN = derived from d
 * @param update post-processing of the release ({@code stats.update}: mean or expdp-zone)
 * @param publishCells {@code stats.publish_cells}: also publish each release's noisy cells on the
 *     cells topic (post-processing: no extra budget)
 */
public record StatsSettings(
        int cells, double countFraction, DpClusterStatistics.Update update, boolean publishCells)
        implements Serializable {
    /** Settings that do not publish the noisy cells. */
    public StatsSettings(int cells, double countFraction, DpClusterStatistics.Update update) {
        this(cells, countFraction, update, false);
    }

    public StatsSettings {
        ConfigException.check(cells >= 1, "stats.cells", "must be >= 1, was " + cells);
        ConfigException.check(
                ConfigException.derivedOrShare(countFraction),
                "stats.count_fraction",
                "must be in (0, 1)");
        ConfigException.check(update != null, "stats.update", "required");
    }

    /** The default partition size for k centroids: max(64, 16·k). */
    public static int defaultCells(int k) {
        return Math.max(64, 16 * k);
    }

    /** The update named {@code wireName} in configuration. */
    public static DpClusterStatistics.Update update(String wireName) {
        return Arrays.stream(DpClusterStatistics.Update.values())
                .filter(u -> u.wireName().equals(wireName))
                .findFirst()
                .orElseThrow(
                        () ->
                                new ConfigException(
                                        "stats.update",
                                        "must be mean or expdp-zone, was '" + wireName + "'"));
    }
}
