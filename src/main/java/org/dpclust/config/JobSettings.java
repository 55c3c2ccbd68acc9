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
 * @param idleTimeout with {@link ReleaseClock#RECORDS} only: a source partition silent this long
 *     stops holding back the watermark
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
 * @param releaseClock what moves the watermark when no records arrive: the job's own clock ticks
 *     (public release instants) or records only (docs/event-time.md#the-release-clock)
 * @param tickInterval with {@link ReleaseClock#TICKS}: how often the job appends a tick to every
 *     input partition (the release instants' granularity)
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
        Instant end,
        ReleaseClock releaseClock,
        Duration tickInterval)
        implements Serializable {

    /** What moves an input partition's watermark forward (docs/event-time.md#the-release-clock). */
    public enum ReleaseClock {
        /**
         * The job appends a tick to every input partition every {@code job.tick_interval}; a tick's
         * log append time moves its partition's watermark like a record that counts, so windows
         * close on the broker's clock whatever the traffic, and no partition is ever idle.
         */
        TICKS,
        /**
         * Only records that count move time; a partition silent for {@code job.idle_timeout} stops
         * holding the watermark back. Release instants then depend on the data.
         */
        RECORDS;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether the job runs the release clock (ticks, on unbounded input). */
    public boolean ticks() {
        return releaseClock == ReleaseClock.TICKS && !boundedInput;
    }

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
                end,
                releaseClock,
                tickInterval);
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
                newEnd,
                releaseClock,
                tickInterval);
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
                end,
                releaseClock,
                tickInterval);
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
