package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's {@code dp-hst} summary. The constructor validates every option
 * ({@link ConfigException} naming {@code hst.<option>}); that the universe holds at least k points
 * is checked by {@link StreamSpec}.
 *
 * @param universe size of the public universe U, in [k, 2^20]
 * @param maxLevels depth cap of the HST over U, in 1..60
 * @param snap how a record picks the point of U it is counted at: {@value #PIVOT} (the default: the
 *     nearest point of the list of U's points around the record's nearest pivot, the exact nearest
 *     point for ≈ 97–98 % of records and releases within noise of it, 0.72–0.84 µs per record
 *     against 4.6–6.0 µs at |U| = 4096, d = 10; U at most {@value #MAX_PIVOT_UNIVERSE} points) or
 *     {@value #NEAREST} (the exact nearest point of U, by a k-d tree). Use {@value #NEAREST} for a
 *     universe larger than {@value #MAX_PIVOT_UNIVERSE} points, which the pivot rule refuses; it is
 *     also the exact reference {@code evaluate hst-snap} measures the pivot rule against
 */
public record HstSettings(int universe, int maxLevels, String snap) implements Serializable {
    /**
     * {@code hst.snap} value: the exact nearest point of U (k-d tree search). Needed for |U| &gt;
     * {@value #MAX_PIVOT_UNIVERSE}, and the reference of {@code evaluate hst-snap}.
     */
    public static final String NEAREST = "nearest";

    /**
     * {@code hst.snap} value, the default: an approximate nearest point of U by its nearest pivot's
     * list.
     */
    public static final String PIVOT = "pivot";

    /** Largest universe the {@value #PIVOT} rule accepts (its lists hold 128 × 512 points). */
    public static final int MAX_PIVOT_UNIVERSE = 1 << 16;

    /** Largest public universe a stream may declare. */
    public static final int MAX_UNIVERSE = 1 << 20;

    /** The defaults: U = 4096 points, at most 12 levels, pivot snapping. */
    public static final HstSettings DEFAULT = new HstSettings(4096, 12, PIVOT);

    /** Settings with the default snap rule ({@value #PIVOT}). */
    public HstSettings(int universe, int maxLevels) {
        this(universe, maxLevels, PIVOT);
    }

    public HstSettings {
        ConfigException.check(
                universe >= 1 && universe <= MAX_UNIVERSE,
                "hst.universe",
                "must be in [k, 2^20], was " + universe);
        ConfigException.check(
                maxLevels >= 1 && maxLevels <= 60,
                "hst.max_levels",
                "must be in 1..60, was " + maxLevels);
        ConfigException.check(
                NEAREST.equals(snap) || PIVOT.equals(snap),
                "hst.snap",
                "must be pivot or nearest, was '" + snap + "'");
        ConfigException.check(
                !PIVOT.equals(snap) || universe <= MAX_PIVOT_UNIVERSE,
                "hst.universe",
                "must be at most "
                        + MAX_PIVOT_UNIVERSE
                        + " with hst.snap pivot (the default), was "
                        + universe
                        + "; set hst.snap: nearest for a larger universe");
    }

    /** Whether records are snapped by their nearest pivot's list ({@value #PIVOT}). */
    public boolean pivot() {
        return PIVOT.equals(snap);
    }
}
