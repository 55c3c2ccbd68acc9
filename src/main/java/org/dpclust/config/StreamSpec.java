package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import org.dpclust.kmeans.DpClusterStatistics;

/**
 * Public, validated configuration of one stream. Everything here is public: the bounds and the
 * dimension are what sensitivities are derived from, so they must never be computed from the data.
 *
 * @param id stream id, matched against {@code TelemetryRecord.stream_id}
 * @param dimension declared dimension d
 * @param lower per-dimension lower bounds (values are clamped into [lower, upper])
 * @param upper per-dimension upper bounds
 * @param k number of centroids released per window
 * @param window tumbling event-time window size
 * @param epsilonPerRelease epsilon of each summary's release in a window
 * @param cap budget cap per budget period (what one unit may lose)
 * @param budgetPeriod event-time budget period, aligned to the epoch
 * @param privacyUnit record or device
 * @param contributionBound c: records kept per device per window (1 for record units)
 * @param summaries enabled summaries, released in enum order
 * @param statsCells size of the public partition of the statistics summary
 * @param statsCountFraction share of a stats release's epsilon spent on counts; NaN = derived from
 *     d
 * @param statsUpdate post-processing of the stats release ({@code stats.update}: mean or
 *     expdp-zone)
 * @param ckm settings of the ckm summary (defaults derived from k and d when not configured)
 * @param hstUniverse size of the public universe U of the dp-hst summary
 * @param hstMaxLevels depth cap of the HST over U
 * @param publicSeed seed of the stream's public randomness (partition points, initial centroids)
 * @param initialCentroids optional public initial centroids (k x d), else drawn from the public
 *     seed
 * @param saltBuckets S: sub-keys a (record-unit) stream's records are spread over before the
 *     per-window merge (1 = one key per stream)
 * @param accounting budget accounting: pure or zcdp with δ, and the lifetime cap ({@link
 *     BudgetAccounting})
 */
public record StreamSpec(
        String id,
        int dimension,
        double[] lower,
        double[] upper,
        int k,
        Duration window,
        double epsilonPerRelease,
        double cap,
        Duration budgetPeriod,
        PrivacyUnit privacyUnit,
        int contributionBound,
        List<Summary> summaries,
        int statsCells,
        double statsCountFraction,
        DpClusterStatistics.Update statsUpdate,
        CkmSettings ckm,
        int hstUniverse,
        int hstMaxLevels,
        long publicSeed,
        double[][] initialCentroids,
        int saltBuckets,
        BudgetAccounting accounting)
        implements Serializable {

    public long windowMillis() {
        return window.toMillis();
    }

    public long budgetPeriodMillis() {
        return budgetPeriod.toMillis();
    }

    /** Start of the tumbling window (epoch-aligned) that contains {@code eventTime}. */
    public long windowStart(long eventTime) {
        long size = windowMillis();
        return Math.floorDiv(eventTime, size) * size;
    }

    /** Records per unit per window that count: c for devices, 1 for records. */
    public int unitContribution() {
        return privacyUnit == PrivacyUnit.DEVICE ? contributionBound : 1;
    }
}
