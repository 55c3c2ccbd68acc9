package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.window.WindowRelease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release-side metrics of {@link StreamClusteringFunction}, registered under the operator's
 * {@code dpclust} group: the counters {@code releases} and {@code refused_releases} (all streams of
 * the subtask), and per stream (key-value group {@code stream}, a {@code stream} label in
 * Prometheus) the counters {@code releases} and {@code refused_releases} and the gauges
 *
 * <ul>
 *   <li>{@code spent}: epsilon spent in the stream's current budget period, as of the last charge
 *       attempt (after the charge if accepted, before it if refused);
 *   <li>{@code remaining}: {@code budget_cap − spent}, same moment;
 *   <li>{@code next_release_ms}: the event time (epoch milliseconds) the watermark must reach for
 *       the stream's next release (or refusal): the earliest pending release timer, today the last
 *       millisecond of the next window to close.
 * </ul>
 *
 * Gauges read NaN until the subtask has seen the stream (a charge attempt for {@code spent} and
 * {@code remaining}, a record or a release for {@code next_release_ms}): they are task-local, not
 * restored from state, so after a restart they are unknown until then rather than wrong. A stream
 * whose input has ended (watermark +∞) has no next release: NaN again.
 *
 * <p>Operator-side: these values are computed from private data exactly (how many windows fired,
 * the ledger); they are not DP releases. Only this class and the lines of {@link
 * StreamClusteringFunction} that call it touch metrics there.
 */
public final class ReleaseMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(ReleaseMetrics.class);

    /** Per-stream values behind the gauges: written on the task thread, read by the reporter. */
    private static final class StreamValues {
        volatile double spent = Double.NaN;
        volatile double remaining = Double.NaN;
        volatile double nextReleaseMs = Double.NaN;
        Counter releases;
        Counter refused;
    }

    /**
     * A job with more streams than this logs each release decision at DEBUG, and at INFO one
     * summary line per minute: a fleet's log stays readable (10,000 streams of 10-s windows would
     * otherwise write 1,000 lines a second).
     */
    public static final int MAX_LOGGED_STREAMS = 20;

    private static final long SUMMARY_MILLIS = 60_000;

    private final Counter releases;
    private final Counter refused;
    private final Map<String, StreamValues> byStream = new HashMap<>();
    private final boolean eachAtInfo;
    private long summaryStart = Long.MIN_VALUE;
    private long summaryReleased;
    private long summaryRefused;

    private ReleaseMetrics(MetricGroup dpclust, List<StreamSpec> streams) {
        eachAtInfo = streams.size() <= MAX_LOGGED_STREAMS;
        releases = dpclust.counter("releases");
        refused = dpclust.counter("refused_releases");
        for (StreamSpec s : streams) {
            StreamValues v = new StreamValues();
            MetricGroup g = dpclust.addGroup("stream", s.id());
            g.gauge("spent", () -> v.spent);
            g.gauge("remaining", () -> v.remaining);
            g.gauge("next_release_ms", () -> v.nextReleaseMs);
            v.releases = g.counter("releases");
            v.refused = g.counter("refused_releases");
            byStream.put(s.id(), v);
        }
    }

    /**
     * Registers the metrics of {@code streams} under {@code dpclust} (the operator's {@code
     * dpclust} group).
     */
    public static ReleaseMetrics register(MetricGroup dpclust, List<StreamSpec> streams) {
        return new ReleaseMetrics(dpclust, streams);
    }

    /** A release timer of {@code streamId} is registered for event time {@code releaseTime}. */
    public void releasePending(String streamId, long releaseTime) {
        StreamValues v = byStream.get(streamId);
        if (Double.isNaN(v.nextReleaseMs) || releaseTime < v.nextReleaseMs) {
            v.nextReleaseMs = releaseTime;
        }
    }

    /**
     * A release timer of {@code streamId} fired; {@code nextReleaseTime} is the event time of the
     * timer chained after it, or {@code -1} when none is (end of input).
     */
    public void released(String streamId, long nextReleaseTime) {
        // every window fires (empty ones too), in order: the chained timer is the earliest pending
        byStream.get(streamId).nextReleaseMs = nextReleaseTime < 0 ? Double.NaN : nextReleaseTime;
    }

    /**
     * Every decision of a window's release: counted like {@link #charged}, and logged as one line
     * each (operator-side: the release log names the stream, the window in ISO-8601 and the
     * outcome) — INFO for a job of at most {@link #MAX_LOGGED_STREAMS} streams, else DEBUG with an
     * INFO summary per minute of processing time.
     */
    void released(StreamSpec s, long windowStart, WindowRelease.Outcome o) {
        for (int i = 0; i < o.decisions().size(); i++) {
            if (eachAtInfo || LOG.isDebugEnabled()) {
                String line =
                        "stream "
                                + s.id()
                                + " window ["
                                + java.time.Instant.ofEpochMilli(windowStart)
                                + ", "
                                + java.time.Instant.ofEpochMilli(windowStart + s.windowMillis())
                                + ") "
                                + o.describe(s, i);
                if (eachAtInfo) {
                    LOG.info(line);
                } else {
                    LOG.debug(line);
                }
            }
            charged(s.id(), o.decisions().get(i));
            if (o.decisions().get(i).accepted()) {
                summaryReleased++;
            } else {
                summaryRefused++;
            }
        }
        if (!eachAtInfo) {
            summarize(System.currentTimeMillis());
        }
    }

    /** The minute's summary line of a fleet, once a minute has passed since the last one. */
    private void summarize(long now) {
        if (summaryStart == Long.MIN_VALUE) {
            summaryStart = now;
        }
        if (now - summaryStart >= SUMMARY_MILLIS) {
            LOG.info(
                    "releases, last {} s: {} released, {} refused ({} streams; each release"
                            + " at DEBUG)",
                    (now - summaryStart) / 1000,
                    summaryReleased,
                    summaryRefused,
                    byStream.size());
            summaryStart = now;
            summaryReleased = 0;
            summaryRefused = 0;
        }
    }

    /** A charge attempt for {@code streamId} and its outcome. */
    public void charged(String streamId, PrivacyLedger.Decision decision) {
        StreamValues v = byStream.get(streamId);
        v.spent = decision.spent();
        v.remaining = decision.cap() - decision.spent();
        if (decision.accepted()) {
            releases.inc();
            v.releases.inc();
        } else {
            refused.inc();
            v.refused.inc();
        }
    }
}
