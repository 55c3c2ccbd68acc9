package org.dpclust.stream;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.RawRecord;
import org.dpclust.window.EventTimePolicy;

/**
 * The source's watermarks, per Kafka partition (split): driven by the broker's log append time,
 * never by a payload's event time. A record's Flink timestamp is its append time; the watermark of
 * a partition is the largest append time of the records on it that <em>count</em> (valid, and
 * within the {@link EventTimePolicy}'s bounds of their own append time), minus the fixed public lag
 * ({@code job.max_out_of_orderness}), minus 1. A record that fails validation or falls outside the
 * bounds does not move time at all, so adding or removing it leaves every watermark — and with it
 * every window's closing — where it was. Append times are stored in the log, so a replay sees the
 * same watermarks.
 *
 * <p>With the release clock ({@code job.release_clock: ticks},
 * docs/event-time.md#the-release-clock) a {@link org.dpclust.kafka.ClockTick} moves its partition's
 * watermark exactly like a record that counts (its log append time, same lag), so every partition's
 * watermark follows the broker's clock whatever the traffic, and there is no idleness: a partition
 * whose ticks are not yet read holds the watermark back. Without it ({@code records}), ticks are
 * ignored and a partition silent for {@code job.idle_timeout} stops holding the watermark back
 * (Flink's idleness).
 */
public final class AppendTimeWatermarks implements WatermarkGenerator<RawRecord> {
    private final Map<String, StreamSpec> specs;
    private final Map<String, DomainBounds> bounds;
    private final EventTimePolicy policy;
    private final long lag;
    private final boolean ticks;
    private AvroCodec<TelemetryRecord> codec;
    private long maxCounted;

    AppendTimeWatermarks(
            List<StreamSpec> streams, EventTimePolicy policy, long lag, boolean ticks) {
        this.specs = new HashMap<>();
        streams.forEach(s -> specs.put(s.id(), s));
        this.bounds = RecordValidator.bounds(streams);
        this.policy = policy;
        this.lag = lag;
        this.ticks = ticks;
        this.maxCounted = Long.MIN_VALUE + lag + 1;
    }

    /**
     * The source's watermark strategy: timestamps = append times, watermarks as above; {@code
     * idleTimeout} null with the release clock (ticks move time, no partition is idle).
     */
    public static WatermarkStrategy<RawRecord> strategy(
            List<StreamSpec> streams, EventTimePolicy policy, Duration lag, Duration idleTimeout) {
        long lagMillis = lag.toMillis();
        boolean ticks = idleTimeout == null;
        WatermarkStrategy<RawRecord> s =
                WatermarkStrategy.<RawRecord>forGenerator(
                                ctx -> new AppendTimeWatermarks(streams, policy, lagMillis, ticks))
                        .withTimestampAssigner((r, kafkaTimestamp) -> r.appendTime);
        return ticks ? s : s.withIdleness(idleTimeout);
    }

    /** Whether the record moves its partition's watermark: a tick (with the clock) or counts. */
    boolean movesTime(RawRecord r) {
        if (r.tick) {
            return ticks && r.logAppendTime;
        }
        return counts(r);
    }

    /** Whether the record counts (and so may move time): a function of the record alone. */
    boolean counts(RawRecord r) {
        if (!r.decoded) {
            if (codec == null) {
                codec = AvroCodec.telemetry();
            }
            r.decode(codec);
        }
        if (RecordValidator.check(r, bounds) != null) {
            return false;
        }
        return policy.exclusion(specs.get(r.streamId), r.eventTime, r.appendTime, r.logAppendTime)
                == null;
    }

    @Override
    public void onEvent(RawRecord r, long timestamp, WatermarkOutput output) {
        if (movesTime(r)) {
            maxCounted = Math.max(maxCounted, r.appendTime);
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        output.emitWatermark(new Watermark(maxCounted - lag - 1));
    }
}
