package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's {@code dp-hst} summary. The constructor validates every option
 * ({@link ConfigException} naming {@code hst.<option>}); that the universe holds at least k points
 * is checked by {@link StreamSpec}.
 *
 * @param universe size of the public universe U, in [k, 2^20]
 * @param maxLevels depth cap of the HST over U, in 1..60
 * @param snap how a record picks the point of U it is counted at: {@value #NEAREST} (the nearest
 *     point of U, the default) or {@value #DESCENT} (the centre of the record's leaf, found by
 *     descending the HST: several times cheaper, releases measured 7–15 % farther from the data) or
 *     {@value #WALK} (a walk to nearer points on a public neighbour graph of U, usually the nearest
 *     point; U at most 2^14 points) or {@value #PIVOT} (the nearest point of the list of U's points
 *     around the record's nearest pivot: usually the nearest point, at a fraction of the walk's
 *     cost; U at most 2^16 points)
 */
public record HstSettings(int universe, int maxLevels, String snap) implements Serializable {
    /** {@code hst.snap} value: the nearest point of U (exact k-d tree search). */
    public static final String NEAREST = "nearest";

    /** {@code hst.snap} value: the centre of the record's HST leaf, found by descent. */
    public static final String DESCENT = "descent";

    /** {@code hst.snap} value: an approximate nearest point of U by a neighbour-graph walk. */
    public static final String WALK = "walk";

    /** {@code hst.snap} value: an approximate nearest point of U by its nearest pivot's list. */
    public static final String PIVOT = "pivot";

    /** Largest universe the {@value #PIVOT} rule accepts (its lists hold 128 × 512 points). */
    public static final int MAX_PIVOT_UNIVERSE = 1 << 16;

    /** Largest universe the {@value #WALK} rule accepts (its neighbour graph costs |U|² d once). */
    public static final int MAX_WALK_UNIVERSE = 1 << 14;

    /** Largest public universe a stream may declare. */
    public static final int MAX_UNIVERSE = 1 << 20;

    /** The defaults: U = 4096 points, at most 12 levels, nearest-point snapping. */
    public static final HstSettings DEFAULT = new HstSettings(4096, 12, NEAREST);

    /** Settings with the default snap rule. */
    public HstSettings(int universe, int maxLevels) {
        this(universe, maxLevels, NEAREST);
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
                NEAREST.equals(snap)
                        || DESCENT.equals(snap)
                        || WALK.equals(snap)
                        || PIVOT.equals(snap),
                "hst.snap",
                "must be nearest, descent, walk or pivot, was '" + snap + "'");
        ConfigException.check(
                !WALK.equals(snap) || universe <= MAX_WALK_UNIVERSE,
                "hst.universe",
                "must be at most " + MAX_WALK_UNIVERSE + " with hst.snap walk, was " + universe);
        ConfigException.check(
                !PIVOT.equals(snap) || universe <= MAX_PIVOT_UNIVERSE,
                "hst.universe",
                "must be at most " + MAX_PIVOT_UNIVERSE + " with hst.snap pivot, was " + universe);
    }

    /** Whether records are snapped by descending the HST ({@value #DESCENT}). */
    public boolean descent() {
        return DESCENT.equals(snap);
    }

    /** Whether records are snapped by the neighbour-graph walk ({@value #WALK}). */
    public boolean walk() {
        return WALK.equals(snap);
    }

    /** Whether records are snapped by their nearest pivot's list ({@value #PIVOT}). */
    public boolean pivot() {
        return PIVOT.equals(snap);
    }
}
