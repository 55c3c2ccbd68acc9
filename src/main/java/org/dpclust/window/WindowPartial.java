package org.dpclust.window;

/**
 * What phase 1 ({@code stream.WindowPreAggregator}) hands to phase 2 ({@code
 * stream.StreamClusteringFunction}) for one (stream, window): either the exact partial accumulators
 * of some of the window's records (fixed-point long sums and counts: {@code statistics}, {@code
 * sketch}, {@code hst}; a summary that is off is null; for device-unit streams the change of the
 * devices' kept sets since the previous partial, which may subtract, see {@code
 * stream.WindowPreAggregator}), or one {@code record} to be accumulated — and, for device units,
 * bounded — by phase 2 itself (operator tests), or an {@link #activation} without data.
 * Operator-side (private, never published): a partial is not noised. Partials of one window add up
 * element-wise; integer addition is associative and commutative, so how the window's records were
 * split into partials cannot change the merged bytes. A Flink POJO (every field has an explicit
 * serializer: strings, longs, primitive arrays, the POJO {@link ValidRecord}).
 */
public class WindowPartial {
    public String streamId;
    public long windowStart;

    /**
     * Records that entered the window through this partial (1 for a record partial; for device
     * units, kept or not: the {@code records_windowed} accumulator).
     */
    public long records;

    public long[] statistics;
    public long[] sketch;
    public long[] hst;

    /** Set only for a single-record partial. */
    public ValidRecord record;

    /**
     * An activation carries no data: it only makes phase 2 start the stream's public release
     * schedule (its key must exist for the first timer to be registered), see {@link
     * StreamClusteringFunction}.
     */
    public boolean activation;

    public WindowPartial() {}

    /** The activation of a configured stream (sent by phase 1 before its first watermark). */
    public static WindowPartial activation(String streamId) {
        WindowPartial p = new WindowPartial();
        p.streamId = streamId;
        p.activation = true;
        return p;
    }

    /**
     * A single record, to be accumulated (device units: bounded) by phase 2 itself (operator
     * tests); phase 2 takes its window from the record's event time.
     */
    public static WindowPartial of(ValidRecord r) {
        WindowPartial p = new WindowPartial();
        p.streamId = r.streamId;
        p.records = 1;
        p.record = r;
        return p;
    }

    /**
     * A window's summaries as a partial for phase 2 (hands over the arrays; do not use {@code w}
     * afterwards).
     */
    public static WindowPartial of(String streamId, WindowSummaries w) {
        WindowPartial p = new WindowPartial();
        p.streamId = streamId;
        p.windowStart = w.windowStart;
        p.records = w.records();
        p.statistics = w.stats.state();
        p.sketch = w.sketchState();
        p.hst = w.hst;
        return p;
    }

    /** Adds this (aggregated) partial into the window's summaries. */
    public void mergeInto(WindowSummaries w) {
        w.merge(records, statistics, sketch, hst);
    }
}
