package org.dpclust.window;

import java.io.Serializable;
import org.dpclust.config.JobSettings;
import org.dpclust.config.StreamSpec;

/**
 * The public time rules of the streaming job (docs/event-time.md), in one Flink-free place: which
 * records count, which windows are scheduled, and when a window closes. Every rule is a function of
 * the public configuration and of the one record it is asked about (or of the watermark, for
 * closing). The watermark itself is not: it moves only with arriving records, and with idleness
 * detection a record on an active partition can close a window before records pending on an idle
 * partition arrive, which then count as late (docs/privacy.md, known gaps).
 *
 * <ul>
 *   <li><b>Inclusion.</b> A record counts iff its Kafka timestamp is the broker's log append time,
 *       its event time t lies in [a − maxLateness, a + maxFuture] around its own append time a, and
 *       its window (by event time) is scheduled; otherwise it is dead-lettered with the reason
 *       {@link #exclusion} names.
 *   <li><b>Schedule.</b> A stream's windows (epoch-aligned, of the stream's size) are scheduled
 *       from the first one starting at or after {@code start} and, with an {@code end}, up to the
 *       last one ending by it. Which windows are released does not depend on any record.
 *   <li><b>Closing.</b> Flink time is append time. The window [s, e) closes (its release timer
 *       fires) when the append-time watermark reaches {@code e + maxLateness − 1}: a record of the
 *       window that counts has an append time of at most {@code t + maxLateness ≤ e − 1 +
 *       maxLateness}, so it arrived before.
 * </ul>
 */
public final class EventTimePolicy implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long start;
    private final long end;
    private final long maxLateness;
    private final long maxFuture;

    /**
     * @param start public start of the schedule (epoch millis)
     * @param end public end of the schedule (epoch millis), {@link Long#MAX_VALUE} for none
     * @param maxLateness how long before its append time a record's event time may be (millis)
     * @param maxFuture how long after its append time a record's event time may be (millis)
     */
    public EventTimePolicy(long start, long end, long maxLateness, long maxFuture) {
        if (maxLateness < 0 || maxFuture < 0 || end <= start) {
            throw new IllegalArgumentException(
                    "need maxLateness, maxFuture >= 0 and end > start: "
                            + maxLateness
                            + ", "
                            + maxFuture
                            + ", ["
                            + start
                            + ", "
                            + end
                            + ")");
        }
        this.start = start;
        this.end = end;
        this.maxLateness = maxLateness;
        this.maxFuture = maxFuture;
    }

    /** The streaming job's policy; fails with a one-line configuration error without a start. */
    public static EventTimePolicy of(JobSettings job) {
        job.requireStreamingSchedule();
        return new EventTimePolicy(
                job.start().toEpochMilli(),
                job.end() == null ? Long.MAX_VALUE : job.end().toEpochMilli(),
                job.maxLateness().toMillis(),
                job.maxFuture().toMillis());
    }

    /** Whether the schedule has an end (then a bounded run releases every scheduled window). */
    public boolean hasEnd() {
        return end != Long.MAX_VALUE;
    }

    /**
     * The public time rules as one line, for the savepoint guard ({@link PublicParameters}): the
     * schedule's start and end and the lateness and future allowances.
     */
    public String publicParameters() {
        return "job.start="
                + java.time.Instant.ofEpochMilli(start)
                + ", job.end="
                + (end == Long.MAX_VALUE ? "none" : java.time.Instant.ofEpochMilli(end))
                + ", job.max_lateness="
                + java.time.Duration.ofMillis(maxLateness)
                + ", job.max_future="
                + java.time.Duration.ofMillis(maxFuture);
    }

    public long maxLateness() {
        return maxLateness;
    }

    /**
     * Start of the stream's first scheduled window: the first window starting at or after start.
     */
    public long firstWindow(StreamSpec s) {
        long w = s.windowMillis();
        return Math.floorDiv(start, w) * w + (Math.floorMod(start, w) == 0 ? 0 : w);
    }

    /** Whether the window starting at {@code windowStart} is on the stream's schedule. */
    public boolean scheduled(StreamSpec s, long windowStart) {
        return windowStart >= firstWindow(s) && windowStart <= end - s.windowMillis();
    }

    /**
     * Start of the window a stream's schedule starts at when a job starts without state: the first
     * window, or the first window after the last interval charged in the budget topic (an earlier
     * run released those windows; releasing them again would charge and publish them twice). Both
     * are public: the configuration and the published ledger.
     *
     * @param lastChargedEnd the end of the stream's latest interval charged in the budget topic,
     *     Long.MIN_VALUE if none
     */
    public long resumeWindow(StreamSpec s, long lastChargedEnd) {
        long first = firstWindow(s);
        if (lastChargedEnd == Long.MIN_VALUE) {
            return first;
        }
        long w = s.windowMillis();
        long end = lastChargedEnd;
        return Math.max(first, Math.floorDiv(end, w) * w + (Math.floorMod(end, w) == 0 ? 0 : w));
    }

    /**
     * The release timer chained after the window starting at {@code windowStart} fired: the next
     * window's {@link #closeTime}, or -1 when the schedule ends there — after its last window, or
     * at the end of a bounded input ({@code endOfInput}, watermark +∞) of a schedule without end.
     */
    public long nextCloseTime(StreamSpec s, long windowStart, boolean endOfInput) {
        long next = windowStart + s.windowMillis();
        if (!scheduled(s, next) || (endOfInput && !hasEnd())) {
            return -1;
        }
        return closeTime(s, next);
    }

    /** The append-time instant at which the window closes: its release timer. */
    public long closeTime(StreamSpec s, long windowStart) {
        return windowStart + s.windowMillis() - 1 + maxLateness;
    }

    /** The window whose {@link #closeTime} is {@code timer}. */
    public long windowOfCloseTime(StreamSpec s, long timer) {
        return timer + 1 - maxLateness - s.windowMillis();
    }

    /**
     * Why a (valid) record does not count, or null if it does: a function of the record alone.
     *
     * @param eventTime the payload's event time
     * @param appendTime the record's Kafka timestamp
     * @param logAppendTime whether that timestamp is the broker's log append time
     */
    public String exclusion(StreamSpec s, long eventTime, long appendTime, boolean logAppendTime) {
        if (!logAppendTime) {
            return Rejections.NOT_APPEND_TIME;
        }
        if (eventTime < appendTime - maxLateness) {
            return Rejections.LATE;
        }
        if (eventTime > appendTime + maxFuture) {
            return Rejections.FUTURE;
        }
        long windowStart = s.windowStart(eventTime);
        if (windowStart < firstWindow(s)) {
            return Rejections.BEFORE_START;
        }
        if (!scheduled(s, windowStart)) {
            return Rejections.AFTER_END;
        }
        return null;
    }

    /** The dead letter's detail for an {@link #exclusion}. */
    public String detail(String reason, StreamSpec s, long eventTime, long appendTime) {
        return switch (reason) {
            case Rejections.NOT_APPEND_TIME ->
                    "the record's Kafka timestamp is not the broker's log append time"
                            + " (topic message.timestamp.type is CreateTime)";
            case Rejections.LATE ->
                    "event time "
                            + eventTime
                            + " is more than max_lateness ("
                            + maxLateness
                            + " ms) before the record's append time "
                            + appendTime;
            case Rejections.FUTURE ->
                    "event time "
                            + eventTime
                            + " is more than max_future ("
                            + maxFuture
                            + " ms) after the record's append time "
                            + appendTime;
            case Rejections.BEFORE_START ->
                    "window starting "
                            + s.windowStart(eventTime)
                            + " is before the stream's first scheduled window "
                            + firstWindow(s);
            default ->
                    "window starting "
                            + s.windowStart(eventTime)
                            + " does not end by the schedule's end "
                            + end;
        };
    }
}
