package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's {@code dp-hst} summary. The constructor validates every option
 * ({@link ConfigException} naming {@code hst.<option>}); that the universe holds at least k points
 * is checked by {@link StreamSpec}.
 *
 * @param universe size of the public universe U, in [k, 2^20]
 * @param maxLevels depth cap of the HST over U, in 1..60
 */
public record HstSettings(int universe, int maxLevels) implements Serializable {
    /** Largest public universe a stream may declare. */
    public static final int MAX_UNIVERSE = 1 << 20;

    /** The defaults: U = 4096 points, at most 12 levels. */
    public static final HstSettings DEFAULT = new HstSettings(4096, 12);

    public HstSettings {
        ConfigException.check(
                universe >= 1 && universe <= MAX_UNIVERSE,
                "hst.universe",
                "must be in [k, 2^20], was " + universe);
        ConfigException.check(
                maxLevels >= 1 && maxLevels <= 60,
                "hst.max_levels",
                "must be in 1..60, was " + maxLevels);
    }
}
