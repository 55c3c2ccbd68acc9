package org.dpclust.jobs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;

/**
 * The release clock's pace: one element per {@code job.tick_interval}, each let through just after
 * a multiple of the interval on this machine's wall clock ({@link #MARGIN_MILLIS} after it), not at
 * the arbitrary phase of a plain rate limiter. A window's close (end + max_lateness +
 * max_out_of_orderness) is a multiple of the tick interval whenever those are, so the tick that
 * closes it is appended right after the close instead of up to one interval later: the release
 * clock's share of a release's delay drops from up to {@code tick_interval} to a few milliseconds
 * (docs/event-time.md, "Release instant"). Public: the schedule depends on the configuration and
 * the clock only. Non-blocking (the source's mailbox is never held: checkpoints go through), one
 * JVM-wide timer thread ({@link CompletableFuture#delayedExecutor}); at most one element per slot,
 * and a slot missed (a busy machine) is skipped, never made up in a burst. Clocks: a wall clock
 * stepped back by Δ pauses the ticks for about Δ (releases wait, never come early); a broker whose
 * clock runs more than the margin plus a send's latency behind this machine's appends the closing
 * tick just before the close, and the window waits one more interval — the worst case of an
 * unaligned clock, not worse.
 */
final class AlignedTicks implements RateLimiterStrategy<SourceSplit> {
    private static final long serialVersionUID = 1L;

    /** After the multiple, so the broker's append time of the tick is at or past it. */
    static final long MARGIN_MILLIS = 2;

    private final long intervalMillis;

    AlignedTicks(long intervalMillis) {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("tick interval must be positive");
        }
        this.intervalMillis = intervalMillis;
    }

    @Override
    public RateLimiter<SourceSplit> createRateLimiter(int parallelism) {
        return new Limiter(intervalMillis);
    }

    /** One subtask's pace. */
    static final class Limiter implements RateLimiter<SourceSplit> {
        private final long interval;
        private long lastSlot = Long.MIN_VALUE;

        Limiter(long interval) {
            this.interval = interval;
        }

        @Override
        public CompletionStage<Void> acquire(int permits) {
            long now = System.currentTimeMillis();
            long at = next(now);
            return CompletableFuture.runAsync(
                    () -> {}, CompletableFuture.delayedExecutor(at - now, TimeUnit.MILLISECONDS));
        }

        /**
         * The instant the next element may go at, asked at {@code now}: the first slot boundary (a
         * multiple of the interval, plus the margin) at or after {@code now}, later than the last
         * slot given.
         */
        long next(long now) {
            long slot = Math.floorDiv(now - MARGIN_MILLIS + interval - 1, interval);
            if (lastSlot != Long.MIN_VALUE && slot <= lastSlot) {
                slot = lastSlot + 1;
            }
            lastSlot = slot;
            return slot * interval + MARGIN_MILLIS;
        }
    }
}
