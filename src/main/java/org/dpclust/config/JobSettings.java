package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

/**
 * Flink-side settings of the streaming job, and the public time rules of docs/event-time.md.
 *
 * @param checkpointInterval exactly-once output becomes visible when a checkpoint completes
 * @param maxOutOfOrderness the fixed, public lag of the watermark behind the largest Kafka log
 *     append time seen on a partition (covers append times that go back: broker clock steps,
 *     partitions led by brokers with skewed clocks); it no longer concerns event times
 * @param idleTimeout a source partition silent this long stops holding back the watermark
 * @param boundedInput read the input topic only up to its end offsets at start (tests, demo,
 *     replays)
 * @param parallelism job parallelism (0 = Flink default)
 * @param decodeParallelism subtasks of the ckm sketch decoder (0 = the job parallelism)
 * @param maxLateness a record counts only if its event time is at most this long before its own
 *     append time (otherwise it is dead-lettered as {@code late}); a window [s, e) is released once
 *     the append-time watermark passes e + maxLateness
 * @param maxFuture a record counts only if its event time is at most this long after its own append
 *     time (otherwise it is dead-lettered as {@code future})
 * @param start public instant at which every stream's release schedule starts (its first window is
 *     the first one starting at or after it); null if not configured (the streaming job refuses to
 *     start without it, batch jobs do not use it)
 * @param end optional public instant: windows that do not end by it are not scheduled (their
 *     records are dead-lettered as {@code after_end}); required with bounded input, where the end
 *     of the input releases every scheduled window
 */
public record JobSettings(
        Duration checkpointInterval,
        Duration maxOutOfOrderness,
        Duration idleTimeout,
        boolean boundedInput,
        int parallelism,
        int decodeParallelism,
        Duration maxLateness,
        Duration maxFuture,
        Instant start,
        Instant end)
        implements Serializable {

    public JobSettings withBoundedInput(boolean bounded) {
        return new JobSettings(
                checkpointInterval,
                maxOutOfOrderness,
                idleTimeout,
                bounded,
                parallelism,
                decodeParallelism,
                maxLateness,
                maxFuture,
                start,
                end);
    }

    /** These settings with another public release schedule ({@code end} may be null). */
    public JobSettings withSchedule(Instant newStart, Instant newEnd) {
        return new JobSettings(
                checkpointInterval,
                maxOutOfOrderness,
                idleTimeout,
                boundedInput,
                parallelism,
                decodeParallelism,
                maxLateness,
                maxFuture,
                newStart,
                newEnd);
    }

    /** These settings with other bounds on a record's event time around its append time. */
    public JobSettings withEventTimeBounds(Duration lateness, Duration future) {
        return new JobSettings(
                checkpointInterval,
                maxOutOfOrderness,
                idleTimeout,
                boundedInput,
                parallelism,
                decodeParallelism,
                lateness,
                future,
                start,
                end);
    }

    /**
     * What the streaming job needs beyond what the loader checks: a public {@code start}, and an
     * {@code end} when the input is bounded. Throws a {@link ConfigException} naming the option.
     */
    public void requireStreamingSchedule() {
        if (start == null) {
            throw new ConfigException(
                    "job.start",
                    "required by the streaming job: the public instant its release schedule"
                            + " starts at (ISO-8601, e.g. 2026-01-01T00:00:00Z)");
        }
        if (boundedInput && end == null) {
            throw new ConfigException(
                    "job.end",
                    "required with bounded_input: true (a bounded run releases the windows in"
                            + " [start, end))");
        }
    }
}
