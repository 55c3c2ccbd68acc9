package org.dpclust.window;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.io.Publication;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.kmedian.HstWindowSummary;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.ReleaseContext;
import org.dpclust.sketch.DpSketchRelease;

/**
 * The release sequence of one (stream, window), in plain Java: for each configured summary in its
 * fixed order ({@link StreamSpec#summaries()}), charge the stream's ledger through a {@link
 * Charger} for the window's interval; a refused charge publishes nothing here; an accepted one runs
 * the summary's mechanism and publishes its release. The charge's CHARGE or REFUSED status is
 * published by the ledger's writer (the operator's {@link Charger} is the fenced ledger client,
 * docs/ledger.md), committed before the releases it pays for can be read (the stream operator's
 * charges are committed before the checkpoint that makes its releases visible), so every refusal is
 * on the budget topic and no release is visible without its charge. Returns what to publish and
 * what to keep, and emits nothing itself — the keyed operator holds the state and timers and
 * forwards the values.
 *
 * <p>{@link Outcome#published()} per summary: {@code stats} and {@code dp-hst}: the {@link
 * Publication.Centroids} ({@code stats} with {@code stats.publish_cells}: then the {@link
 * Publication.Cells} its centroids were computed from); {@code ckm}: the {@link Publication.Sketch}
 * (its centroids come from the decoder, {@link SketchDecoding}, fed from {@link
 * Outcome#sketches()}); a refusal: nothing.
 *
 * <p>Each charge carries a fingerprint of the release: HMAC(secret, domain, noise key), hex — it
 * reveals nothing without the secret. A replayed window (same contents, same noise key) has the
 * same fingerprint and gets the ledger's recorded decision; a window released again from other
 * contents (a restart without state) has another fingerprint and is charged again.
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

    private static final byte[] FINGERPRINT_DOMAIN =
            "dpclust/ledger-fingerprint/v1".getBytes(StandardCharsets.UTF_8);

    /**
     * Charges the stream's ledger for one summary's release (implemented by the operator with its
     * ledger client). Returns a decision that is committed before the release can be read (at once,
     * or before the operator's next checkpoint completes); failures (ledger history lost, ledger
     * unavailable) are thrown and fail the release.
     */
    @FunctionalInterface
    public interface Charger {
        /**
         * @param summary the summary's wire name
         * @param interval the window's PUBLIC interval
         * @param budget what the release costs: the same value its mechanism is calibrated from
         * @param fingerprint keyed hash of the release's noise key (hex; see the class comment)
         */
        Charged charge(
                String summary,
                PrivacyLedger.Interval interval,
                ReleaseBudget budget,
                String fingerprint)
                throws Exception;
    }

    /**
     * A committed ledger decision as the releases state it: {@code decision} with ε's ((ε, δ)
     * equivalents at {@code delta} under zCDP accounting), and for a zCDP charge the ledger's own
     * amounts: the ρ charged, the ρ spent in the period after it and the ρ cap (all NaN for a pure
     * stream, δ too).
     */
    public record Charged(
            PrivacyLedger.Decision decision,
            double rho,
            double rhoSpent,
            double rhoCap,
            double delta) {
        /** A pure stream's decision. */
        public static Charged pure(PrivacyLedger.Decision d) {
            return new Charged(d, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }

        /** The fenced ledger's committed decision, with its BudgetStatus's ρ fields under zcdp. */
        public static Charged of(LedgerDecision d) {
            BudgetStatus st = d.status();
            if (!Accounting.ZCDP.configName().equals(st.getAccounting())) {
                return pure(d.decision());
            }
            return new Charged(
                    d.decision(), st.getRho(), st.getRhoSpent(), st.getRhoCap(), st.getDelta());
        }

        /** Whether this is a zCDP charge (releases then carry ρ and δ). */
        public boolean zcdp() {
            return !Double.isNaN(rho);
        }

        /**
         * Whether this decision charged exactly {@code budget}: the ε of a pure charge, the ρ of a
         * zCDP one. The operator refuses to release on any other decision, so a release's noise is
         * always calibrated from the amount its charge committed.
         */
        public boolean pays(ReleaseBudget budget) {
            return budget.match(
                    eps -> !zcdp() && Double.compare(decision.epsilon(), eps) == 0,
                    r -> zcdp() && Double.compare(rho, r) == 0);
        }
    }

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
     * @param stats the accepted {@code stats} release's noisy cells, parameters and charge (for the
     *     {@link RunningRelease}), or null when {@code stats} was not released
     */
    public record Outcome(
            List<Publication> published,
            List<ReleasedSketch> sketches,
            double[] centroids,
            List<PrivacyLedger.Decision> decisions,
            RunningRelease.StatsCells stats) {
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
     * @param ledger charges the stream's ledger, once per summary, before its mechanism runs
     * @param previous the last released {@code stats} centroids, row-major k·d (as {@link
     *     Outcome#centroids()}), or null before the first release: the public initial ones
     */
    public Outcome release(WindowSummaries w, Charger ledger, double[] previous) throws Exception {
        StreamSpec s = rt.spec();
        long windowStart = w.windowStart;
        long windowEnd = windowStart + s.windowMillis();
        PrivacyLedger.Interval interval = new PrivacyLedger.Interval(windowStart, windowEnd);
        List<Publication> out = new ArrayList<>();
        List<ReleasedSketch> sketches = new ArrayList<>();
        List<PrivacyLedger.Decision> decisions = new ArrayList<>();
        double[] centroids = null;
        RunningRelease.StatsCells stats = null;
        // one value is charged and calibrates every mechanism below: charged = noised
        ReleaseBudget budget = s.releaseBudget();
        for (Summary summary : s.summaries()) {
            ReleaseContext key = noiseKey(w, summary);
            Charged decision =
                    paid(
                            ledger.charge(
                                    summary.wireName(), interval, budget, fingerprint(secret, key)),
                            budget);
            decisions.add(decision.decision());
            if (!decision.decision().accepted()) {
                continue;
            }
            PrivacyRandom rng = PrivacyRandom.forRelease(secret, key);
            switch (summary) {
                case STATS -> {
                    DpClusterStatistics.ReleaseParams params = statsParams(budget);
                    DpClusterStatistics.NoisyCells cells =
                            DpClusterStatistics.noisyCells(w.stats, rt.codec(), params, rng);
                    DpClusterStatistics.Release r =
                            DpClusterStatistics.postProcess(
                                    cells, rt.codec(), unflatten(rt, previous), params, rng);
                    centroids = flatten(r.centroids());
                    stats = new RunningRelease.StatsCells(cells, params, decision);
                    out.add(
                            centroids(
                                    summary,
                                    windowStart,
                                    windowEnd,
                                    ReleasedCentroids.of(r),
                                    decision));
                    if (s.stats().publishCells()) {
                        out.add(
                                new Publication.Cells(
                                        ReleaseAssembler.cells(
                                                s,
                                                rt.cells(),
                                                rt.codec(),
                                                windowStart,
                                                windowEnd,
                                                cells,
                                                r.parameters(),
                                                decision)));
                    }
                }
                case CKM -> {
                    DpSketchRelease.Result noisy = releaseCkm(w, budget, rng);
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
                    HstWindowSummary.Release h = releaseHst(w, budget, rng);
                    out.add(
                            centroids(
                                    summary,
                                    windowStart,
                                    windowEnd,
                                    ReleasedCentroids.of(h),
                                    decision));
                }
            }
        }
        return new Outcome(out, sketches, centroids, decisions, stats);
    }

    /**
     * {@code charged}, if it is refused or charged exactly {@code budget}: a release is never
     * calibrated from another amount than its charge committed (a ledger or charger that answers
     * for another amount fails the release instead).
     */
    static Charged paid(Charged charged, ReleaseBudget budget) {
        if (charged.decision().accepted() && !charged.pays(budget)) {
            throw new IllegalStateException(
                    "the ledger accepted a charge that is not for "
                            + budget
                            + " (the budget the release is calibrated from): "
                            + charged);
        }
        return charged;
    }

    /** The noise key of a summary's release: public parameters and the contents' digest. */
    private ReleaseContext noiseKey(WindowSummaries w, Summary summary) {
        String mechanism;
        byte[] digest;
        switch (summary) {
            case STATS -> {
                mechanism = statsMechanism;
                digest = w.stats.digest();
            }
            case CKM -> {
                mechanism = ckmMechanism;
                digest = w.sketch.digest();
            }
            default -> {
                mechanism = hstMechanism;
                digest = new AccumulatorDigest().add(w.hst).digest();
            }
        }
        return new ReleaseContext(
                rt.spec().id(), w.windowStart, summary.wireName(), mechanism, digest);
    }

    /** HMAC(secret, domain ‖ noise key), first 16 bytes, hex: the charge's release fingerprint. */
    static String fingerprint(PrivacySecret secret, ReleaseContext key) {
        byte[] k = key.canonicalBytes();
        byte[] msg = new byte[FINGERPRINT_DOMAIN.length + k.length];
        System.arraycopy(FINGERPRINT_DOMAIN, 0, msg, 0, FINGERPRINT_DOMAIN.length);
        System.arraycopy(k, 0, msg, FINGERPRINT_DOMAIN.length, k.length);
        return HexFormat.of().formatHex(secret.hmacSha256(msg), 0, 16);
    }

    private Publication centroids(
            Summary summary,
            long windowStart,
            long windowEnd,
            ReleasedCentroids r,
            Charged decision) {
        return new Publication.Centroids(
                ReleaseAssembler.release(
                        rt.spec(),
                        summary.wireName(),
                        MODE,
                        Guarantee.DP,
                        windowStart,
                        windowEnd,
                        1,
                        r,
                        decision));
    }

    /** The {@code stats} release's parameters, calibrated from the charged {@code budget}. */
    private DpClusterStatistics.ReleaseParams statsParams(ReleaseBudget budget) {
        StreamSpec s = rt.spec();
        return new DpClusterStatistics.ReleaseParams(
                budget, s.statsCountFraction(), s.unitContribution(), s.statsUpdate());
    }

    private DpSketchRelease.Result releaseCkm(
            WindowSummaries w, ReleaseBudget budget, PrivacyRandom rng) {
        StreamSpec s = rt.spec();
        CkmSettings c = s.ckm();
        return budget.match(
                eps ->
                        DpSketchRelease.addRemove(
                                w.sketch, eps, c.countFraction(), s.unitContribution(), rng),
                rho ->
                        DpSketchRelease.addRemoveGaussian(
                                w.sketch, rho, c.countFraction(), s.unitContribution(), rng));
    }

    private HstWindowSummary.Release releaseHst(
            WindowSummaries w, ReleaseBudget budget, PrivacyRandom rng) {
        StreamSpec s = rt.spec();
        return budget.match(
                eps -> rt.hst().release(w.hst, s.k(), eps, s.unitContribution(), rng),
                rho -> rt.hst().releaseGaussian(w.hst, s.k(), rho, s.unitContribution(), rng));
    }

    /** Row-major k·d centroids as k rows; null: the stream's public initial centroids. */
    static double[][] unflatten(StreamRuntime rt, double[] flat) {
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

    /** k rows as row-major k·d centroids. */
    static double[] flatten(double[][] c) {
        int d = c[0].length;
        double[] flat = new double[c.length * d];
        for (int i = 0; i < c.length; i++) {
            System.arraycopy(c[i], 0, flat, i * d, d);
        }
        return flat;
    }
}
