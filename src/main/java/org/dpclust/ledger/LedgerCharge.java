package org.dpclust.ledger;

import org.dpclust.config.BudgetAccounting;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.ReleaseBudget;
import org.dpclust.privacy.Zcdp;

/**
 * One charge request to a stream's fenced ledger ({@link LedgerClient}): what is charged (epsilon
 * to a PUBLIC event-time interval), by whom (source {@code stream} or {@code batch}, the summary or
 * algorithm, a batch run id) and under which limits (the stream's cap, budget period and privacy
 * unit). Everything here is public.
 *
 * <p>{@link #key()} is the charge's identity on the compacted budget topic: unique per charge, so
 * two charges never overwrite each other, and deterministic, so a replay of the same charge (a
 * Flink task re-firing the same window's release timer, a batch job's task retried within the same
 * run) maps to the same key and gets the recorded decision back instead of charging twice:
 *
 * <ul>
 *   <li>{@code stream|stream|summary|start:end} for a streaming window's release of one summary;
 *   <li>{@code stream|batch|algorithm|start:end|runId} for a batch release (a new run id per
 *       invocation; a retry inside the run keeps it).
 * </ul>
 *
 * @param epsilon the epsilon to charge (finite, positive)
 * @param cap the stream's cap on spent per budget period
 * @param periodMillis the budget period
 * @param unit the stream's privacy unit (record: max over instants; device: sum over the period)
 * @param fingerprint optional ("" = none): a keyed hash of what is released (e.g. an HMAC of the
 *     release's noise key under the job's secret; it reveals nothing without the secret). A charge
 *     whose key was decided with another fingerprint is not a replay but another release of the
 *     same interval: it is charged anew under {@code key|fingerprint}
 * @param accounting the stream's budget accounting (docs/zcdp.md): under zcdp the pure {@code
 *     epsilon} is charged as ε²/2 against the ρ equivalent of ({@code cap}, δ); a lifetime cap
 *     applies in both modes
 * @param rho NaN for a pure ε release; else the ρ of a zCDP (e.g. Gaussian) release, charged as is,
 *     with {@code epsilon} its (ε, δ) equivalent ({@link #withRho})
 */
public record LedgerCharge(
        String stream,
        Source source,
        String summary,
        PrivacyLedger.Interval interval,
        String runId,
        double epsilon,
        double cap,
        long periodMillis,
        PrivacyUnit unit,
        String fingerprint,
        BudgetAccounting accounting,
        double rho) {

    /** Who charges. */
    public enum Source {
        STREAM,
        BATCH;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A charge without a release fingerprint. */
    public LedgerCharge(
            String stream,
            Source source,
            String summary,
            PrivacyLedger.Interval interval,
            String runId,
            double epsilon,
            double cap,
            long periodMillis,
            PrivacyUnit unit) {
        this(
                stream,
                source,
                summary,
                interval,
                runId,
                epsilon,
                cap,
                periodMillis,
                unit,
                "",
                BudgetAccounting.PURE,
                Double.NaN);
    }

    /** This charge under the stream's budget accounting {@code a}. */
    public LedgerCharge withAccounting(BudgetAccounting a) {
        return with(epsilon, fingerprint, a, rho);
    }

    /** This charge with the release fingerprint {@code fp}. */
    public LedgerCharge withFingerprint(String fp) {
        return with(epsilon, fp, accounting, rho);
    }

    /** This charge as a pure ε release of {@code eps} (finite, &gt; 0). */
    public LedgerCharge withEpsilon(double eps) {
        return with(eps, fingerprint, accounting, Double.NaN);
    }

    private LedgerCharge with(double eps, String fp, BudgetAccounting a, double r) {
        return new LedgerCharge(
                stream, source, summary, interval, runId, eps, cap, periodMillis, unit, fp, a, r);
    }

    /**
     * This charge as a ρ-zCDP release (e.g. a discrete Gaussian release) on a zcdp stream: ρ is
     * charged as is, and {@code epsilon} becomes the ε that ρ implies at the stream's δ ({@link
     * Zcdp#epsilon}, deterministic, so a replay has the same ε).
     *
     * @throws IllegalArgumentException unless the accounting is zcdp and ρ is finite and > 0
     */
    public LedgerCharge withRho(double r) {
        if (accounting.mode() != Accounting.ZCDP) {
            throw new IllegalArgumentException("a rho charge needs accounting: zcdp");
        }
        ReleaseBudget.requireRho(r);
        return with(Zcdp.epsilon(r, accounting.delta()), fingerprint, accounting, r);
    }

    public LedgerCharge {
        if (fingerprint == null) {
            fingerprint = "";
        }
        if (accounting == null) {
            accounting = BudgetAccounting.PURE;
        }
        if (!fingerprint.isEmpty()) {
            requireName("fingerprint", fingerprint);
        }
        requireName("stream", stream);
        requireName("summary", summary);
        if (source == Source.BATCH) {
            requireName("runId", runId);
        } else if (runId != null && !runId.isEmpty()) {
            throw new IllegalArgumentException("a stream charge has no run id");
        }
        ReleaseBudget.requireEpsilon(epsilon);
    }

    /**
     * The release budget this charge pays for: {@link ReleaseBudget.Zcdp} with {@link #rho} when
     * set, else {@link ReleaseBudget.Pure} with {@link #epsilon}.
     */
    public ReleaseBudget budget() {
        return Double.isNaN(rho) ? new ReleaseBudget.Pure(epsilon) : new ReleaseBudget.Zcdp(rho);
    }

    /**
     * The charge for one summary's release of a streaming window, paying {@code budget}: the budget
     * the release's mechanism is calibrated from (a zCDP budget needs {@code accounting: zcdp}).
     */
    public static LedgerCharge stream(
            StreamSpec s, String summary, PrivacyLedger.Interval interval, ReleaseBudget budget) {
        LedgerCharge c = stream(s, summary, interval.start(), interval.end());
        return budget.match(c::withEpsilon, c::withRho);
    }

    /** The charge for one summary's release of a streaming window [start, end). */
    public static LedgerCharge stream(StreamSpec s, String summary, long start, long end) {
        return new LedgerCharge(
                        s.id(),
                        Source.STREAM,
                        summary,
                        new PrivacyLedger.Interval(start, end),
                        "",
                        s.epsilonPerRelease(),
                        s.cap(),
                        s.budgetPeriodMillis(),
                        s.privacyUnit())
                .withAccounting(accountingOf(s));
    }

    private static BudgetAccounting accountingOf(StreamSpec s) {
        return s.accounting() == null ? BudgetAccounting.PURE : s.accounting();
    }

    /** The charge of one batch run's release over the public interval. */
    public static LedgerCharge batch(
            StreamSpec s,
            String algorithm,
            PrivacyLedger.Interval interval,
            String runId,
            double epsilon) {
        return new LedgerCharge(
                        s.id(),
                        Source.BATCH,
                        algorithm,
                        interval,
                        runId,
                        epsilon,
                        s.cap(),
                        s.budgetPeriodMillis(),
                        s.privacyUnit())
                .withAccounting(accountingOf(s));
    }

    /** The charge's unique, deterministic key on the budget topic (class javadoc). */
    public String key() {
        String k = stream + "|" + source.wireName() + "|" + summary + "|" + interval.key();
        return source == Source.BATCH ? k + "|" + runId : k;
    }

    /** The key of a release of this charge's key whose fingerprint differs from the first one. */
    public String rechargeKey() {
        return key() + "|" + fingerprint;
    }

    /** The key of stream {@code s}'s ledger marker (its high-water mark). */
    public static String markerKey(String stream) {
        return stream + "|marker";
    }

    /** A fresh ledger with this charge's limits and accounting. */
    public PrivacyLedger newLedger() {
        return PrivacyLedger.of(accounting, cap, periodMillis, unit == PrivacyUnit.DEVICE);
    }

    private static void requireName(String what, String v) {
        if (v == null || v.isBlank() || v.contains("|")) {
            throw new IllegalArgumentException(
                    what + " must be non-blank and must not contain '|', was '" + v + "'");
        }
    }
}
