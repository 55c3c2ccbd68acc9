package org.dpclust.window;

import java.util.HexFormat;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.ReleaseContext;

/**
 * The mechanism id of each stream summary, for the noise key of its releases ({@link
 * ReleaseContext#mechanism()}): one method per mechanism, all of the same form — the mechanism's
 * name and version, then {@code /public=} and a SHA-256 digest of EVERY public parameter that
 * shapes the mechanism or its input (the stream's bounds, dimension, k, ε per release, privacy unit
 * and contribution bound c, public seed, and the summary's own settings). Any configuration change
 * therefore keys independent noise: the same random bits at two scales, or over two partitions of
 * the same data, would otherwise let a consumer solve for the data (an empty window re-released
 * under new settings is the simplest case).
 *
 * <p>Under {@code accounting: zcdp} every summary draws discrete Gaussian noise instead: its id has
 * another name ({@code cells-dgauss-v1}, {@code masked-sketch-dgauss-v1}, {@code hst-dgauss-v1})
 * and its digest adds the accounting, δ and the ρ per release, so the two noise families never
 * share random bits.
 *
 * <p>Public values only; the id is never published (it is an HMAC input), but nothing in it is
 * secret either.
 */
public final class Mechanisms {
    private Mechanisms() {}

    /**
     * {@code stats}: geometric noise on the cells of the public partition (number of cells, count
     * share). The update rule and the starting centroids are not in it: they post-process the same
     * noisy cells, so changing them re-releases the same noise instead of drawing new noise over
     * the same data.
     */
    public static String stats(StreamSpec s) {
        String name = s.zcdp() ? "cells-dgauss-v1" : "cells-geometric-v2";
        return id(
                name,
                common(name, s)
                        .add("cells")
                        .add(s.statsCells())
                        .add("count_fraction")
                        .add(s.statsCountFraction()));
    }

    /**
     * {@code ckm}: geometric noise on the masked random-feature sketch (m, r, frequency law and σ,
     * count share, and the mask shape, {@code block}: the id block masks had when uniform ones were
     * still an option).
     */
    public static String ckm(StreamSpec s) {
        String name = s.zcdp() ? "masked-sketch-dgauss-v1" : "masked-sketch-geometric-v2";
        AccumulatorDigest d =
                common(name, s)
                        .add("m")
                        .add(s.ckm().m())
                        .add("r")
                        .add(s.ckm().r())
                        .add("law")
                        .add(s.ckm().law())
                        .add("sigma")
                        .add(s.ckm().sigma())
                        .add("count_fraction")
                        .add(s.ckm().countFraction());
        d.add("mask").add("block");
        return id(name, d);
    }

    /**
     * {@code dp-hst}: geometric (zcdp: discrete Gaussian) noise on the HST's node counts (universe
     * size, levels, k, and the snap rule's id when it is {@code pivot}: the counts then partition
     * the data differently; {@code nearest} keeps the id it had before the rule was an option).
     */
    public static String hst(StreamSpec s) {
        String name = s.zcdp() ? "hst-dgauss-v1" : "hst-geometric-v2";
        AccumulatorDigest d =
                common(name, s)
                        .add("universe")
                        .add(s.hstUniverse())
                        .add("max_levels")
                        .add(s.hstMaxLevels())
                        .add("k")
                        .add(s.k());
        if (s.hstPivot()) {
            d.add("snap").add(hstSnapRule(s));
        }
        return id(name, d);
    }

    /**
     * The id of the stream's dp-hst snap rule: {@code nearest}, or the pivot rule with everything
     * that decides where it puts a record ({@link PivotListIndex#RULE}). Keyed into {@link #hst}
     * and into the stream's saved public parameters, so a change of the rule is refused at restore
     * rather than mixed into open windows.
     */
    public static String hstSnapRule(StreamSpec s) {
        return s.hstPivot() ? PivotListIndex.RULE : s.hst().snap();
    }

    /** The parameters every summary's mechanism depends on. */
    private static AccumulatorDigest common(String name, StreamSpec s) {
        AccumulatorDigest d = new AccumulatorDigest();
        if (s.zcdp()) {
            d.add("accounting")
                    .add("zcdp")
                    .add("delta")
                    .add(s.accounting().delta())
                    .add("rho")
                    .add(s.rhoPerRelease());
        }
        return d.add(name)
                .add("dimension")
                .add(s.dimension())
                .add("lower")
                .add(s.lower())
                .add("upper")
                .add(s.upper())
                .add("epsilon")
                .add(s.epsilonPerRelease())
                .add("privacy_unit")
                .add(s.privacyUnit().wireName())
                .add("c")
                .add(s.unitContribution())
                .add("public_seed")
                .add(s.publicSeed());
    }

    private static String id(String name, AccumulatorDigest d) {
        return name + "/public=" + HexFormat.of().formatHex(d.digest());
    }
}
