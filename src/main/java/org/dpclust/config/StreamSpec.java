package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.privacy.ReleaseBudget;

/**
 * Public, validated configuration of one stream. Everything here is public: the bounds and the
 * dimension are what sensitivities are derived from, so they must never be computed from the data.
 * Each summary's settings validate themselves; this constructor validates the stream's own options
 * and the rules that span them, so a spec built in code is as checked as one read by {@link
 * ConfigLoader}. Problems raise a {@link ConfigException} whose option path is relative to the
 * stream (e.g. {@code stats.cells}; the loader reports it as {@code streams[0].stats.cells}).
 *
 * @param id stream id, matched against {@code TelemetryRecord.stream_id}; non-blank, without '|'
 * @param dimension declared dimension d &gt;= 1
 * @param lower per-dimension lower bounds (values are clamped into [lower, upper])
 * @param upper per-dimension upper bounds, each greater than its lower bound
 * @param k number of centroids released per window, &gt;= 1
 * @param window tumbling event-time window size, positive
 * @param summaries enabled summaries, non-empty; kept distinct, in release (enum) order
 * @param budget epsilon per release, cap and budget period (a whole number of windows)
 * @param unit privacy unit and contribution bound
 * @param stats settings of the stats summary (cells &gt;= k)
 * @param ckm settings of the ckm summary (defaults derived from k and d by the loader)
 * @param hst settings of the dp-hst summary (universe &gt;= k)
 * @param publicSeed seed of the stream's public randomness (partition points, initial centroids)
 * @param initialCentroids optional public initial centroids (k x d), else drawn from the public
 *     seed
 * @param saltBuckets S: sub-keys a stream's records are spread over before the per-window merge (1
 *     = one key per stream; device units: by device id, so a device's records share one), in [1,
 *     {@value #MAX_SALT_BUCKETS}]
 * @param accounting budget accounting: pure or zcdp with δ, and the lifetime cap ({@link
 *     BudgetAccounting})
 * @param running running releases from the sum of the last windows' noisy {@code stats} cells, or
 *     by tree aggregation over the budget period ({@link RunningSettings}; {@link
 *     RunningSettings#NONE} when off); {@code mode: tree} only for record units under zcdp
 */
public record StreamSpec(
        String id,
        int dimension,
        double[] lower,
        double[] upper,
        int k,
        Duration window,
        List<Summary> summaries,
        BudgetSettings budget,
        UnitSettings unit,
        StatsSettings stats,
        CkmSettings ckm,
        HstSettings hst,
        long publicSeed,
        double[][] initialCentroids,
        int saltBuckets,
        BudgetAccounting accounting,
        RunningSettings running)
        implements Serializable {

    /**
     * Upper limit of a stream's salt_buckets (sub-keys beyond the cluster's parallelism do not
     * help).
     */
    public static final int MAX_SALT_BUCKETS = 1024;

    public StreamSpec {
        ConfigException.check(id != null, "id", "required");
        ConfigException.check(
                !id.isBlank() && !id.contains("|"),
                "id",
                "must be non-blank and must not contain '|'");
        ConfigException.check(dimension >= 1, "dimension", "required, must be >= 1");
        lower = vector(lower, "lower", dimension);
        upper = vector(upper, "upper", dimension);
        for (int j = 0; j < dimension; j++) {
            ConfigException.check(
                    upper[j] > lower[j],
                    "upper[" + j + "]",
                    "must be greater than lower[" + j + "] = " + lower[j]);
        }
        ConfigException.check(k >= 1 && k <= 10_000, "k", "required, between 1 and 10000");
        ConfigException.check(window != null, "window", "required");
        ConfigException.check(
                !window.isZero() && !window.isNegative(),
                "window",
                "must be positive, was " + window);
        ConfigException.check(budget != null, "budget_cap", "required");
        ConfigException.check(
                budget.periodMillis() % window.toMillis() == 0,
                "budget_period",
                "must be a whole number of windows (" + window + ")");
        ConfigException.check(unit != null, "privacy_unit", "required");
        ConfigException.check(
                summaries != null && !summaries.isEmpty(), "summaries", "must be a non-empty list");
        summaries = List.copyOf(new TreeSet<>(summaries));
        ConfigException.check(stats != null, "stats", "required");
        ConfigException.check(stats.cells() >= k, "stats.cells", "must be >= k (" + k + ")");
        ConfigException.check(ckm != null, "ckm", "required");
        ConfigException.check(hst != null, "hst", "required");
        ConfigException.check(
                hst.universe() >= k, "hst.universe", "must be in [k, 2^20], was " + hst.universe());
        if (initialCentroids != null) {
            ConfigException.check(
                    initialCentroids.length == k,
                    "initial_centroids",
                    "must be a list of k = " + k + " points");
            initialCentroids = initialCentroids.clone();
            for (int i = 0; i < k; i++) {
                initialCentroids[i] =
                        vector(initialCentroids[i], "initial_centroids[" + i + "]", dimension);
            }
        }
        ConfigException.check(
                saltBuckets >= 1 && saltBuckets <= MAX_SALT_BUCKETS,
                "salt_buckets",
                "must be in [1, " + MAX_SALT_BUCKETS + "], was " + saltBuckets);
        ConfigException.check(accounting != null, "accounting", "required");
        ConfigException.check(running != null, "running", "required (RunningSettings.NONE)");
        if (running.enabled()) {
            ConfigException.check(
                    summaries.contains(Summary.STATS),
                    "running",
                    "needs the stats summary (running releases sum its noisy cells)");
            ConfigException.check(
                    !running.tree() || unit.privacyUnit() == PrivacyUnit.RECORD,
                    "running.mode",
                    "tree needs privacy_unit: record (a device in every window moves a level-h"
                            + " node by 2^h windows' worth, so the tree's sensitivity grows with"
                            + " the node length; use mode sum for device units,"
                            + " docs/zcdp.md#running-releases-for-device-units)");
            ConfigException.check(
                    !running.tree() || accounting.mode() == org.dpclust.privacy.Accounting.ZCDP,
                    "running.mode",
                    "tree needs accounting: zcdp (its nodes get discrete Gaussian noise)");
            long span =
                    running.period()
                            ? budget.periodMillis() / window.toMillis()
                            : running.windows();
            long longs =
                    running.tree()
                            ? treeStateLongs(span, stats.cells(), dimension)
                            : span * stats.cells() * (dimension + 1L);
            ConfigException.check(
                    longs <= RunningSettings.MAX_STATE_LONGS,
                    "running.windows",
                    "the running state would hold "
                            + span
                            + " windows x "
                            + stats.cells()
                            + " cells x (d + 1) = "
                            + longs
                            + " longs, above the limit of "
                            + RunningSettings.MAX_STATE_LONGS
                            + " (docs/zcdp.md#running-releases-published-by-the-stream-job); use fewer windows or cells");
        }
    }

    /**
     * Longs of a {@code running.mode: tree} state over {@code horizon} windows: the period start,
     * then the count tree's and the sum tree's {@link
     * org.dpclust.privacy.BinaryTreeAggregation#stateLongs} (about 2L·cells·(d + 1)).
     */
    public static long treeStateLongs(long horizon, int cells, int dimension) {
        return 1
                + org.dpclust.privacy.BinaryTreeAggregation.stateLongs(cells, horizon)
                + org.dpclust.privacy.BinaryTreeAggregation.stateLongs(cells * dimension, horizon);
    }

    /** A copy of {@code v} after checking it holds {@code d} finite numbers. */
    private static double[] vector(double[] v, String option, int d) {
        ConfigException.check(v != null, option, "required");
        ConfigException.check(v.length == d, option, "must be a list of " + d + " numbers");
        for (int j = 0; j < d; j++) {
            ConfigException.check(
                    Double.isFinite(v[j]), option + "[" + j + "]", "must be a finite number");
        }
        return v.clone();
    }

    public long windowMillis() {
        return window.toMillis();
    }

    /** Start of the tumbling window (epoch-aligned) that contains {@code eventTime}. */
    public long windowStart(long eventTime) {
        long size = windowMillis();
        return Math.floorDiv(eventTime, size) * size;
    }

    /**
     * Start of the first window of the running release made at the window starting at {@code
     * windowStart}: W − 1 windows before it, or the start of its budget period ({@code
     * running.windows: period}). A function of public values only.
     */
    public long runningSpanStart(long windowStart) {
        if (running.period()) {
            return Math.floorDiv(windowStart, budgetPeriodMillis()) * budgetPeriodMillis();
        }
        return windowStart - (running.windows() - 1L) * windowMillis();
    }

    /** Epsilon of each summary's release in a window ({@code budget().epsilonPerRelease()}). */
    public double epsilonPerRelease() {
        return budget.epsilonPerRelease();
    }

    /**
     * The budget of each summary's release in a window, from which both its ledger charge and its
     * mechanism's noise are derived: {@link ReleaseBudget.Pure} ({@link #epsilonPerRelease}) under
     * pure accounting, {@link ReleaseBudget.Zcdp} ({@link #rhoPerRelease}) under zcdp.
     */
    public ReleaseBudget releaseBudget() {
        return zcdp()
                ? new ReleaseBudget.Zcdp(rhoPerRelease())
                : new ReleaseBudget.Pure(epsilonPerRelease());
    }

    /**
     * The ρ of each summary's discrete Gaussian release under {@code accounting: zcdp} ({@link
     * BudgetAccounting#releaseRho}). With {@code running.mode: tree} the tree is one more release
     * per window: it is charged this ρ too (ρ_tree = rho_per_release), and the even split counts it
     * among the window's releases, so a window's summaries and its tree charge fit the cap
     * together.
     *
     * @throws IllegalStateException under pure accounting
     */
    public double rhoPerRelease() {
        if (!zcdp()) {
            throw new IllegalStateException(
                    "stream '" + id + "' is pure: its releases have no rho");
        }
        return accounting.releaseRho(
                cap(),
                summaries.size() + (running.tree() ? 1 : 0),
                budgetPeriodMillis() / windowMillis(),
                privacyUnit() == PrivacyUnit.DEVICE);
    }

    /** Whether releases draw discrete Gaussian noise charged in ρ ({@code accounting: zcdp}). */
    public boolean zcdp() {
        return accounting.mode() == org.dpclust.privacy.Accounting.ZCDP;
    }

    /** Budget cap per budget period: what one unit may lose ({@code budget().cap()}). */
    public double cap() {
        return budget.cap();
    }

    /** Event-time budget period, aligned to the epoch ({@code budget().period()}). */
    public Duration budgetPeriod() {
        return budget.period();
    }

    public long budgetPeriodMillis() {
        return budget.periodMillis();
    }

    /** Record or device ({@code unit().privacyUnit()}). */
    public PrivacyUnit privacyUnit() {
        return unit.privacyUnit();
    }

    /** c: records kept per device per window, 1 for record units ({@code unit()}). */
    public int contributionBound() {
        return unit.contributionBound();
    }

    /** Records per unit per window that count: c for devices, 1 for records. */
    public int unitContribution() {
        return unit.unitContribution();
    }

    /** Size of the public partition of the statistics summary ({@code stats().cells()}). */
    public int statsCells() {
        return stats.cells();
    }

    /** Share of a stats release's epsilon spent on counts; NaN = derived from d. */
    public double statsCountFraction() {
        return stats.countFraction();
    }

    /** Post-processing of the stats release ({@code stats().update()}). */
    public DpClusterStatistics.Update statsUpdate() {
        return stats.update();
    }

    /** Size of the public universe U of the dp-hst summary ({@code hst().universe()}). */
    public int hstUniverse() {
        return hst.universe();
    }

    /** Depth cap of the HST over U ({@code hst().maxLevels()}). */
    public int hstMaxLevels() {
        return hst.maxLevels();
    }

    /** Whether dp-hst snaps records by their nearest pivot's list ({@code hst().pivot()}). */
    public boolean hstPivot() {
        return hst.pivot();
    }
}
