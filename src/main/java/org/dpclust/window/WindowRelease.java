package org.dpclust.window;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmedian.HstWindowSummary;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.sketch.DpSketchRelease;

/**
 * The release sequence of one (stream, window), in plain Java: for each configured summary in its
 * fixed order ({@link StreamSpec#summaries()}), charge the ledger for the window's interval; a
 * refused charge publishes only the refusal; an accepted one runs the summary's mechanism and
 * publishes its release, then the charge. Returns what to publish and what to keep, and emits
 * nothing itself — the keyed operator holds the state and timers and forwards the values.
 *
 * <p>Order of {@link Outcome#published()} per summary: {@code stats} and {@code dp-hst}: the {@link
 * Publication.Centroids}, then the {@link Publication.Budget} CHARGE; {@code ckm}: the {@link
 * Publication.Sketch}, then the CHARGE (its centroids come from the decoder, {@link
 * SketchDecoding}, fed from {@link Outcome#sketches()}); a refusal: the REFUSED entry alone.
 *
 * <p>Privacy: noise is drawn only through {@link PrivacyRandom} keyed by HMAC(secret, stream,
 * window start, summary, {@link Mechanisms mechanism id with the digest of every public parameter},
 * digest of the exact summary), so a replayed window releases byte-identical values and any other
 * configuration or content draws independent noise. Only public values are published: noisy
 * releases, public parameters and ledger totals. The ledger is charged before a mechanism runs, for
 * the PUBLIC window interval; nothing data-dependent happens between the charge and the
 * publication.
 */
public final class WindowRelease {
    /** Mode of stream releases in {@code CentroidRelease.mode}. */
    public static final String MODE = "stream";

    /** Guarantee of every stream release. */
    public static final String GUARANTEE_DP = "dp";

    private final StreamRuntime rt;
    private final PrivacySecret secret;
    private final String statsMechanism;
    private final String ckmMechanism;
    private final String hstMechanism;

    public WindowRelease(StreamRuntime rt, PrivacySecret secret) {
        this.rt = rt;
        this.secret = secret;
        StreamSpec s = rt.spec();
        this.statsMechanism = Mechanisms.stats(s);
        this.ckmMechanism = s.summaries().contains(Summary.CKM) ? Mechanisms.ckm(s) : null;
        this.hstMechanism = s.summaries().contains(Summary.DP_HST) ? Mechanisms.hst(s) : null;
    }

    /**
     * What one window's release produced.
     *
     * @param published in publication order (see the class comment)
     * @param sketches the accepted {@code ckm} sketches, for the decoder
     * @param centroids the {@code stats} centroids released now (the next window's starting point),
     *     row-major k·d, or null when {@code stats} was not released
     * @param decisions the ledger's decision per summary, in order
     */
    public record Outcome(
            List<Publication> published,
            List<ReleasedSketch> sketches,
            double[] centroids,
            List<PrivacyLedger.Decision> decisions) {
        /** One line for the log about the i-th summary's decision (public values only). */
        public String describe(StreamSpec s, int i) {
            PrivacyLedger.Decision d = decisions.get(i);
            return s.summaries().get(i).wireName()
                    + (d.accepted() ? " released" : " REFUSED (cap reached)")
                    + ": epsilon "
                    + d.epsilon()
                    + ", spent "
                    + d.spent()
                    + "/"
                    + d.cap();
        }
    }

    /**
     * Releases one window.
     *
     * @param w the window's exact summaries (empty ones for a window without records)
     * @param ledger the stream's ledger; charged here
     * @param previous the last released {@code stats} centroids, row-major k·d (as {@link
     *     Outcome#centroids()}), or null before the first release: the public initial ones
     */
    public Outcome release(WindowSummaries w, PrivacyLedger ledger, double[] previous) {
        StreamSpec s = rt.spec();
        long windowStart = w.windowStart;
        long windowEnd = windowStart + s.windowMillis();
        List<Publication> out = new ArrayList<>();
        List<ReleasedSketch> sketches = new ArrayList<>();
        List<PrivacyLedger.Decision> decisions = new ArrayList<>();
        double[] centroids = null;
        for (Summary summary : s.summaries()) {
            PrivacyLedger.Decision decision =
                    ledger.charge(
                            new PrivacyLedger.Interval(windowStart, windowEnd),
                            s.epsilonPerRelease());
            decisions.add(decision);
            BudgetStatus status = ReleaseAssembler.budget(s, MODE, summary.wireName(), decision);
            if (!decision.accepted()) {
                out.add(new Publication.Budget(status));
                continue;
            }
            switch (summary) {
                case STATS -> {
                    DpClusterStatistics.Release r = releaseStats(w, unflatten(previous));
                    centroids = flatten(r.centroids());
                    out.add(centroids(summary, windowStart, windowEnd, r, decision));
                }
                case CKM -> {
                    DpSketchRelease.Result noisy = releaseCkm(w);
                    out.add(
                            new Publication.Sketch(
                                    ReleaseAssembler.sketch(
                                            s,
                                            windowStart,
                                            windowEnd,
                                            rt.frequencies(),
                                            s.ckm().r(),
                                            noisy,
                                            decision)));
                    sketches.add(
                            ReleasedSketch.of(s.id(), windowStart, windowEnd, noisy, decision));
                }
                case DP_HST -> {
                    HstWindowSummary.Release h = releaseHst(w);
                    out.add(
                            centroids(
                                    summary,
                                    windowStart,
                                    windowEnd,
                                    new DpClusterStatistics.Release(
                                            h.centroids(), new double[0], h.parameters()),
                                    decision));
                }
            }
            out.add(new Publication.Budget(status));
        }
        return new Outcome(out, sketches, centroids, decisions);
    }

    private Publication centroids(
            Summary summary,
            long windowStart,
            long windowEnd,
            DpClusterStatistics.Release r,
            PrivacyLedger.Decision decision) {
        return new Publication.Centroids(
                ReleaseAssembler.release(
                        rt.spec(),
                        summary.wireName(),
                        MODE,
                        GUARANTEE_DP,
                        windowStart,
                        windowEnd,
                        1,
                        r,
                        decision));
    }

    private PrivacyRandom rng(long windowStart, Summary summary, String mechanism, byte[] digest) {
        return PrivacyRandom.forRelease(
                secret,
                new ReleaseContext(
                        rt.spec().id(), windowStart, summary.wireName(), mechanism, digest));
    }

    private DpClusterStatistics.Release releaseStats(WindowSummaries w, double[][] previous) {
        StreamSpec s = rt.spec();
        return DpClusterStatistics.release(
                w.stats,
                rt.codec(),
                previous,
                new DpClusterStatistics.ReleaseParams(
                        s.epsilonPerRelease(),
                        s.statsCountFraction(),
                        s.unitContribution(),
                        s.statsUpdate()),
                rng(w.windowStart, Summary.STATS, statsMechanism, w.stats.digest()));
    }

    private DpSketchRelease.Result releaseCkm(WindowSummaries w) {
        StreamSpec s = rt.spec();
        CkmSettings c = s.ckm();
        return DpSketchRelease.addRemove(
                w.sketch,
                s.epsilonPerRelease(),
                c.countFraction(),
                s.unitContribution(),
                rng(w.windowStart, Summary.CKM, ckmMechanism, w.sketch.digest()));
    }

    private HstWindowSummary.Release releaseHst(WindowSummaries w) {
        StreamSpec s = rt.spec();
        byte[] digest = new AccumulatorDigest().add(w.hst).digest();
        return rt.hst()
                .release(
                        w.hst,
                        s.k(),
                        s.epsilonPerRelease(),
                        s.unitContribution(),
                        rng(w.windowStart, Summary.DP_HST, hstMechanism, digest));
    }

    private double[][] unflatten(double[] flat) {
        if (flat == null) {
            return rt.initial();
        }
        int k = rt.spec().k();
        int d = rt.spec().dimension();
        double[][] c = new double[k][d];
        for (int i = 0; i < k; i++) {
            System.arraycopy(flat, i * d, c[i], 0, d);
        }
        return c;
    }

    private static double[] flatten(double[][] c) {
        int d = c[0].length;
        double[] flat = new double[c.length * d];
        for (int i = 0; i < c.length; i++) {
            System.arraycopy(c[i], 0, flat, i * d, d);
        }
        return flat;
    }
}
