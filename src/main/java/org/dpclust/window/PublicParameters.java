package org.dpclust.window;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.privacy.Accounting;

/**
 * A stream's public parameters as its keyed state saves them, and the rule for restoring that state
 * under a configuration (the savepoint guard of {@code stream.StreamClusteringFunction}):
 * Flink-free, so the rule can be read and tested without an operator. Everything here is public
 * configuration; nothing depends on data.
 */
public final class PublicParameters {
    private PublicParameters() {}

    /**
     * The public parameters that shape what a stream's open windows were promised (window, domain,
     * k, summaries, ε per release, privacy unit and its bound, public seed, stats cells), as one
     * readable line. Salting and parallelism are not among them for record units: they change no
     * released byte. For device units the line also names {@code salt_buckets} and where devices
     * are bounded ({@code bounded_in=pre-aggregate}): phase 1 keeps each device's reservoir under
     * its sub-key, so a changed S — or a savepoint of a version that bounded devices in this
     * operator — would meet a window's later records with empty reservoirs and let a device count
     * up to 2c times in a window open across the restore. Such a restore is refused like any other
     * change of public parameters.
     *
     * <p>A zcdp stream adds its accounting and its ρ per release (configured, or the even split of
     * its cap): a running sum labels its span's charge as the windows' count times the latest ρ
     * ({@code span_charged_rho}), which another ρ across a restore would mislabel, and a pure
     * stream's ε per release is pinned the same way.
     *
     * <p>A stream with a running sum adds its stats count fraction: the sum labels its span's noise
     * with the latest window's scales, which another split across a restore would mislabel.
     *
     * <p>A stream with {@code running.mode: tree} adds the tree's ρ and its horizon (the budget
     * period): an open tree node sums the leaves of several windows, each charged ρ_tree when it
     * was added, so its noise must stay calibrated to that ρ (a larger ρ after a restore would cost
     * the earlier windows' records more than they were charged), and its dyadic layout to that
     * period.
     */
    public static String of(StreamSpec s) {
        return "window="
                + s.window()
                + ", dimension="
                + s.dimension()
                + ", lower="
                + Arrays.toString(s.lower())
                + ", upper="
                + Arrays.toString(s.upper())
                + ", k="
                + s.k()
                + ", summaries="
                + s.summaries()
                + ", epsilon_per_release="
                + s.epsilonPerRelease()
                + ", privacy_unit="
                + s.privacyUnit().wireName()
                + ", c="
                + s.unitContribution()
                + ", public_seed="
                + s.publicSeed()
                + ", stats.cells="
                + s.statsCells()
                + (s.privacyUnit() == PrivacyUnit.DEVICE
                        ? ", salt_buckets=" + s.saltBuckets() + ", bounded_in=pre-aggregate"
                        : "")
                + (s.accounting().mode() == Accounting.ZCDP
                        ? ", accounting=zcdp, rho_per_release=" + s.rhoPerRelease()
                        : "")
                + (s.running().enabled() && !s.running().tree()
                        ? ", running=sum, stats.count_fraction=" + s.stats().countFraction()
                        : "")
                + (s.running().tree()
                        ? ", running=tree, rho_tree="
                                + s.rhoPerRelease()
                                + ", budget_period="
                                + s.budgetPeriod()
                                + ", tree_mechanism="
                                + Mechanisms.stats(s)
                        : "")
                + placement(s);
    }

    /**
     * Where a record's contribution lands in the ckm and dp-hst states, as the suffix {@code ,
     * placement=[…]} of {@link #of} (empty without those summaries): the sketch's m and r — a
     * window's sketch calibrates its noise to the configured r, so records added under a larger r
     * before a restore would weigh more than the sensitivity covers — its mask shape (device
     * bounding subtracts an evicted record under the current shape), and its frequency law and σ,
     * and the universe, depth and snap rule of dp-hst (the pivot rule with its own parameters,
     * {@link Mechanisms#hstSnapRule}) — device bounding subtracts an evicted record with the
     * current frequencies and where the current rule puts it, so records added under others would
     * stay while other contributions were removed, and a device could move up to 3c records' worth.
     */
    public static String placement(StreamSpec s) {
        List<String> p = new java.util.ArrayList<>();
        if (s.summaries().contains(Summary.CKM)) {
            p.add("ckm.m=" + s.ckm().m());
            p.add("ckm.r=" + s.ckm().r());
            p.add("ckm.law=" + s.ckm().law());
            p.add("ckm.sigma=" + s.ckm().sigma());
            p.add("ckm.mask=block"); // the mask shape, as the line had it when it was an option
        }
        if (s.summaries().contains(Summary.DP_HST)) {
            p.add("hst.universe=" + s.hstUniverse());
            p.add("hst.max_levels=" + s.hstMaxLevels());
            p.add("hst.snap=" + Mechanisms.hstSnapRule(s));
        }
        return p.isEmpty() ? "" : ", placement=" + p;
    }

    /**
     * Whether a saved {@link #of} line admits the configured one: equal, or saved by a version
     * before the placement suffix existed, equal without it, and of a stream where the unknown
     * placement cannot matter: record units without ckm (each record adds one count at one point
     * under whichever rule, and nothing is ever subtracted). Such a savepoint of a ckm stream (its
     * r unknown) or of a device-unit dp-hst stream (its snap rule unknown) is refused, see
     * docs/operations.md.
     */
    public static boolean admits(String saved, StreamSpec s) {
        String configured = of(s);
        if (saved.equals(configured)) {
            return true;
        }
        int at = configured.indexOf(", placement=[");
        return at >= 0
                && !saved.contains(", placement=[")
                && saved.equals(configured.substring(0, at))
                && s.privacyUnit() == PrivacyUnit.RECORD
                && !s.summaries().contains(Summary.CKM);
    }

    /**
     * Null when every saved entry ({@code id|line}) is admitted by the configured streams and time
     * rules, else the one-line refusal naming what changed, the saved line and the configured one.
     * The job's time rules are saved under the empty id (no stream id is empty): a window open
     * across the restore was promised its close time, its device reservoirs' lifetime and its
     * schedule under them — another {@code max_lateness} would close reservoirs early and let a
     * device count more than c records, another {@code start} or {@code end} would drop or add
     * windows.
     */
    public static String refusal(
            Iterable<String> savedEntries, List<StreamSpec> streams, EventTimePolicy policy) {
        boolean anyStream = false;
        boolean timeRules = false;
        Map<String, StreamSpec> byId = new HashMap<>();
        for (StreamSpec s : streams) {
            byId.put(s.id(), s);
        }
        for (String entry : savedEntries) {
            int bar = entry.indexOf('|');
            String id = entry.substring(0, bar);
            String saved = entry.substring(bar + 1);
            if (id.isEmpty()) {
                timeRules = true;
                if (!saved.equals(policy.publicParameters())) {
                    return timeRulesChanged(saved, policy.publicParameters());
                }
                continue;
            }
            anyStream = true;
            StreamSpec s = byId.get(id);
            if (s != null && !admits(saved, s)) {
                return changed("stream '" + id + "'", saved, of(s));
            }
        }
        if (anyStream && !timeRules) { // a savepoint of a version that did not save them
            return timeRulesChanged("not saved", policy.publicParameters());
        }
        return null;
    }

    private static String changed(String what, String saved, String configured) {
        return what
                + ": its public parameters changed since its state"
                + " was saved (saved: "
                + saved
                + "; configured: "
                + configured
                + "); restore the saved configuration, or stop the"
                + " job at a window boundary and start the changed"
                + " stream under a new stream id";
    }

    private static String timeRulesChanged(String saved, String configured) {
        return "the job's time rules: its public parameters changed since its state was saved"
                + " (saved: "
                + saved
                + "; configured: "
                + configured
                + "); restore with the saved job.start (or --start), job.end, job.max_lateness"
                + " and job.max_future, or start the job without the savepoint (the ledger keeps"
                + " every stream's spend)";
    }

    /** The entry a stream's state saves: {@code id|line}. */
    public static String entry(StreamSpec s) {
        return s.id() + "|" + of(s);
    }

    /** The entry of the job's time rules: {@code |line} (the empty id). */
    public static String entry(EventTimePolicy policy) {
        return "|" + policy.publicParameters();
    }
}
