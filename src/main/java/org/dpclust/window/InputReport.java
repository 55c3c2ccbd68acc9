package org.dpclust.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's view of one ingestion stage (validation or inclusion) over a period of processing
 * time: records passed and rejected by reason, per stream, turned into log lines once a period has
 * passed ({@link #due}). Operator-side only (logs are trusted, like metrics and dead letters; none
 * of this is published), plain Java.
 *
 * <p>Lines per report: one INFO total ({@code "<stage>, last 60 s: 1200 passed, 35 rejected (late
 * 30, future 5)"}); a WARN per stream whose records were mostly rejected (at least {@value
 * #WARN_MIN} and more than passed), naming the main reason and its likely fix; an INFO per other
 * stream with rejections. At most {@value #MAX_STREAM_LINES} stream lines, WARNs first, then {@code
 * "... and N more streams"}: a fleet's report stays short. Records without a stream (not decodable)
 * count under {@code (undecodable)}.
 */
public final class InputReport {
    /** Records a stream must have had rejected in a period before a WARN. */
    public static final int WARN_MIN = 10;

    /** Stream lines per report. */
    public static final int MAX_STREAM_LINES = 10;

    /** One log line. */
    public record Line(boolean warn, String text) {}

    private final String stage;
    private final long periodMillis;
    private final Map<String, long[]> passed = new HashMap<>();
    private final Map<String, Map<String, Long>> rejected = new HashMap<>();
    private long periodStart = Long.MIN_VALUE;

    /** System property: the report period in seconds (default 60). */
    public static final String PERIOD_PROPERTY = "dpclust.input.report.seconds";

    /** A report with the period of {@link #PERIOD_PROPERTY}. */
    public static InputReport of(String stage) {
        return new InputReport(stage, 1000L * Long.getLong(PERIOD_PROPERTY, 60));
    }

    public InputReport(String stage, long periodMillis) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("period must be positive");
        }
        this.stage = stage;
        this.periodMillis = periodMillis;
    }

    /** A record of {@code stream} passed this stage. */
    public void passed(String stream) {
        passed.computeIfAbsent(key(stream), s -> new long[1])[0]++;
    }

    /** A record of {@code stream} (null if unknown) was rejected for {@code reason}. */
    public void rejected(String stream, String reason) {
        rejected.computeIfAbsent(key(stream), s -> new TreeMap<>()).merge(reason, 1L, Long::sum);
    }

    private static String key(String stream) {
        return stream == null ? "(undecodable)" : stream;
    }

    /**
     * The report's lines if a period has passed since the first record of this period (then the
     * counts start over), else none. {@code now}: processing time in ms.
     */
    public List<Line> due(long now) {
        if (periodStart == Long.MIN_VALUE) {
            periodStart = now;
        }
        if (now - periodStart < periodMillis) {
            return List.of();
        }
        long seconds = Math.round((now - periodStart) / 1000.0);
        periodStart = now;
        List<Line> out = new ArrayList<>();
        long in = 0;
        Map<String, Long> reasons = new TreeMap<>();
        for (long[] n : passed.values()) {
            in += n[0];
        }
        long out0 = 0;
        for (Map<String, Long> r : rejected.values()) {
            for (Map.Entry<String, Long> e : r.entrySet()) {
                reasons.merge(e.getKey(), e.getValue(), Long::sum);
                out0 += e.getValue();
            }
        }
        if (in == 0 && out0 == 0) {
            return List.of();
        }
        out.add(
                new Line(
                        false,
                        stage
                                + ", last "
                                + seconds
                                + " s: "
                                + in
                                + " passed, "
                                + out0
                                + " rejected"
                                + (reasons.isEmpty() ? "" : " " + reasons)));
        List<Line> warns = new ArrayList<>();
        List<Line> infos = new ArrayList<>();
        for (Map.Entry<String, Map<String, Long>> e : new TreeMap<>(rejected).entrySet()) {
            String stream = e.getKey();
            long ok = passed.containsKey(stream) ? passed.get(stream)[0] : 0;
            long bad = e.getValue().values().stream().mapToLong(Long::longValue).sum();
            String main =
                    e.getValue().entrySet().stream()
                            .max(Map.Entry.comparingByValue())
                            .orElseThrow()
                            .getKey();
            String counts = bad + " of " + (ok + bad) + " records rejected " + e.getValue();
            if (bad >= WARN_MIN && bad > ok) {
                warns.add(
                        new Line(
                                true,
                                "stream "
                                        + stream
                                        + ": "
                                        + counts
                                        + " in the last "
                                        + seconds
                                        + " s, mostly "
                                        + main
                                        + ": "
                                        + hint(main)));
            } else {
                infos.add(new Line(false, "stream " + stream + ": " + counts));
            }
        }
        List<Line> streams = new ArrayList<>(warns);
        streams.addAll(infos);
        out.addAll(streams.subList(0, Math.min(MAX_STREAM_LINES, streams.size())));
        if (streams.size() > MAX_STREAM_LINES) {
            out.add(
                    new Line(
                            false,
                            "... and " + (streams.size() - MAX_STREAM_LINES) + " more streams"));
        }
        passed.clear();
        rejected.clear();
        return out;
    }

    /** The likely fix for records rejected for {@code reason}. */
    public static String hint(String reason) {
        return switch (reason) {
            case Rejections.LATE ->
                    "event time more than job.max_lateness before append time: check the"
                            + " producers' clocks, or raise job.max_lateness";
            case Rejections.FUTURE ->
                    "event time more than job.max_future after append time: check the producers'"
                            + " clocks";
            case Rejections.BEFORE_START ->
                    "their windows are before job.start: check job.start or --start (generate"
                            + " writes past event times unless --realtime)";
            case Rejections.AFTER_END -> "their windows are after job.end";
            case Rejections.NOT_APPEND_TIME ->
                    "the input topic's timestamps are not LogAppendTime: set"
                            + " message.timestamp.type=LogAppendTime on it";
            case Rejections.UNDECODABLE ->
                    "not dpclust TelemetryRecords (Avro single-object encoding):"
                            + " docs/wire-format.md";
            case Rejections.UNKNOWN_STREAM -> "the stream id is not in the configuration's streams";
            case Rejections.WRONG_DIMENSION -> "the feature count is not the stream's dimension";
            case Rejections.NON_FINITE -> "features are NaN or infinite";
            default -> "see the dead-letter topic's detail field";
        };
    }
}
