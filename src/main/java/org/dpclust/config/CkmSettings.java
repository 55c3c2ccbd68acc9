package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's compressive k-means ({@code ckm}) summary: the frequency matrix
 * (size m, law, scale σ in unit-box coordinates, drawn from the stream's public seed), the mask
 * size r (α_r = r/m) and the budget split of the sketch release. None of these may be computed from
 * the data. The constructor validates every option ({@link ConfigException} naming {@code
 * ckm.<option>}).
 *
 * <p>A stream's record masks are block masks: r cyclically consecutive features from a keyed
 * uniform offset (SketchMasks), every feature when r = m. Paper 003's uniform r-subsets have the
 * same sensitivity and noise, were measured no more accurate ({@code evaluate ckm-mask}) and are
 * 1.25× slower to update, so they are not a stream option; they remain in SketchMasks for {@code
 * evaluate ckm}, which reproduces the paper, and as the reference of {@code evaluate ckm-mask}.
 *
 * @param m number of frequencies, in [1, 65536]
 * @param r mask size, in [1, m]
 * @param law frequency law: {@code gaussian} or {@code adapted-radius}
 * @param sigma frequency scale in unit-box coordinates, a finite number &gt; 0
 * @param countFraction share of a release's ε for the noisy count; NaN = the derived default
 * @param replicates decoder replicates, &gt;= 1
 * @param warmStart whether a window's decode starts from the stream's previous released ckm
 *     centroids (public), running the cold replicates only when that start is not good enough
 *     ({@code ClOmpr.WarmStart}); off by default
 * @param decodeEvery N &gt;= 1: the decoder publishes {@code ckm} centroids for the windows whose
 *     epoch-aligned index (window start / window size) is a multiple of N, decoded from that
 *     window's released sketch; the sketch itself is released every window. Public, a function of
 *     the window start alone, post-processing only (1, the default: every window)
 */
public record CkmSettings(
        int m,
        int r,
        String law,
        double sigma,
        double countFraction,
        int replicates,
        boolean warmStart,
        int decodeEvery)
        implements Serializable {
    /** Settings that decode every window cold. */
    public CkmSettings(
            int m, int r, String law, double sigma, double countFraction, int replicates) {
        this(m, r, law, sigma, countFraction, replicates, false, 1);
    }

    /**
     * Whether the window starting at {@code windowStart} (of size {@code windowMillis}) is decoded.
     */
    public boolean decodes(long windowStart, long windowMillis) {
        return Math.floorMod(Math.floorDiv(windowStart, windowMillis), (long) decodeEvery) == 0;
    }

    /** Largest frequency matrix a stream may declare. */
    public static final int MAX_M = 1 << 16;

    /**
     * Smallest {@code ckm.sigma}: frequencies scale as 1/σ, and below this their phases could
     * overflow ({@link org.dpclust.sketch.FrequencyMatrix#MAX_ROW_L1}, which the matrix enforces).
     */
    public static final double MIN_SIGMA = 1e-100;

    public CkmSettings {
        ConfigException.check(
                m >= 1 && m <= MAX_M, "ckm.m", "must be in [1, " + MAX_M + "], was " + m);
        ConfigException.check(r >= 1 && r <= m, "ckm.r", "must be in [1, m = " + m + "], was " + r);
        ConfigException.check(
                "gaussian".equals(law) || "adapted-radius".equals(law),
                "ckm.law",
                "must be gaussian or adapted-radius, was '" + law + "'");
        ConfigException.check(
                ConfigException.positiveFinite(sigma), "ckm.sigma", "must be a finite number > 0");
        ConfigException.check(
                sigma >= MIN_SIGMA,
                "ckm.sigma",
                "must be >= " + MIN_SIGMA + " (below it, the frequencies' phases could overflow)");
        ConfigException.check(
                ConfigException.derivedOrShare(countFraction),
                "ckm.count_fraction",
                "must be in (0, 1)");
        ConfigException.check(replicates >= 1, "ckm.replicates", "must be >= 1");
        ConfigException.check(
                decodeEvery >= 1, "ckm.decode_every", "must be >= 1, was " + decodeEvery);
    }
}
