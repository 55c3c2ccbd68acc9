package org.dpclust.dashboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.io.AvroJson;

/**
 * What the dashboard shows: {@link CentroidRelease}s from the centroids topic and {@link
 * BudgetStatus} events from the budget topic (published), and — when the server follows the
 * dead-letter topic, an operator-side topic — how many records were rejected per stream and reason
 * ({@link #rejected}): counts only, never a record's content (the page marks them as not
 * published). Never the input topic.
 *
 * <p>Per stream, releases are kept in window order, one per (window start, window end, algorithm):
 * a replayed window encodes byte-identically, so a later copy replaces an earlier one. Budget
 * events are kept per (kind, window start, algorithm), latest wins, as the compacted budget topic
 * would keep them. {@link #snapshot} returns a JSON-ready map with the schemas' snake_case field
 * names, plus per release {@code colours}: one palette slot per centroid from {@link
 * CentroidColours}, each release matched to the one before it in its stream (whatever its
 * algorithm), so a cluster keeps its colour from window to window. Thread-safe.
 */
public final class DashboardState {
    private final Map<String, Map<String, Map<String, Object>>> releases = new TreeMap<>();
    private final Map<String, Map<String, Map<String, Object>>> budget = new TreeMap<>();
    private long recordsRead;
    private long undecodable;
    private final Map<String, Map<String, Long>> rejected = new TreeMap<>();
    private long rejectedRecords;
    private boolean followsRejections;

    /** Marks the state as fed from the dead-letter topic (its counts are then shown). */
    public synchronized DashboardState followingRejections() {
        followsRejections = true;
        return this;
    }

    /**
     * Counts one dead-lettered record under its stream ({@value #NO_STREAM} when it has none, e.g.
     * an undecodable record) and its reason.
     */
    public synchronized void rejected(String streamId, String reason) {
        rejectedRecords++;
        rejected.computeIfAbsent(
                        streamId == null || streamId.isEmpty() ? NO_STREAM : streamId,
                        k -> new TreeMap<>())
                .merge(reason, 1L, Long::sum);
    }

    /** The stream shown for a dead letter without one. */
    public static final String NO_STREAM = "(no stream)";

    public synchronized void add(CentroidRelease r) {
        recordsRead++;
        String key =
                r.getWindowStart().toEpochMilli()
                        + "|"
                        + r.getWindowEnd().toEpochMilli()
                        + "|"
                        + r.getAlgorithm();
        releases.computeIfAbsent(r.getStreamId(), s -> new TreeMap<>(DashboardState::byWindow))
                .put(key, AvroJson.toMap(r));
    }

    public synchronized void add(BudgetStatus b) {
        recordsRead++;
        if (b.getKind() == org.dpclust.avro.BudgetEventKind.MARKER) {
            return; // the ledger's high-water mark, not a budget event
        }
        String key = b.getWindowStart().toEpochMilli() + "|" + b.getKind() + "|" + b.getAlgorithm();
        budget.computeIfAbsent(b.getStreamId(), s -> new TreeMap<>(DashboardState::byWindow))
                .put(key, AvroJson.toMap(b));
    }

    /** Counts a record that could not be decoded (it is skipped, but counts as read). */
    public synchronized void skipped() {
        recordsRead++;
        undecodable++;
    }

    /** Number of releases held, over all streams. */
    public synchronized int releaseCount() {
        return releases.values().stream().mapToInt(Map::size).sum();
    }

    /**
     * {@code {records_read (decoded or not), undecodable, streams: [{stream_id, dimension,
     * releases: [...], budget_events: [...]}], rejected: {followed, records, by_stream:
     * [{stream_id, reasons: {reason: records}}]}}}, streams by id, releases and events by window;
     * each release is its record's fields plus {@code colours} (see the class comment).
     */
    public synchronized Map<String, Object> snapshot() {
        TreeMap<String, Object> ids = new TreeMap<>();
        releases.keySet().forEach(id -> ids.put(id, id));
        budget.keySet().forEach(id -> ids.put(id, id));
        List<Map<String, Object>> streams = new ArrayList<>();
        for (String id : ids.keySet()) {
            Map<String, Object> s = new LinkedHashMap<>();
            List<Map<String, Object>> rel = withColours(releases.getOrDefault(id, Map.of()));
            s.put("stream_id", id);
            s.put(
                    "dimension",
                    rel.isEmpty()
                            ? null
                            : ((List<?>) rel.get(rel.size() - 1).get("domain_lower")).size());
            s.put("releases", rel);
            s.put("budget_events", new ArrayList<>(budget.getOrDefault(id, Map.of()).values()));
            streams.add(s);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("records_read", recordsRead);
        out.put("undecodable", undecodable);
        out.put("streams", streams);
        Map<String, Object> rej = new LinkedHashMap<>();
        rej.put("followed", followsRejections);
        rej.put("records", rejectedRecords);
        List<Map<String, Object>> byStream = new ArrayList<>();
        rejected.forEach(
                (id, reasons) -> {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("stream_id", id);
                    r.put("reasons", new TreeMap<>(reasons));
                    byStream.add(r);
                });
        rej.put("by_stream", byStream);
        out.put("rejected", rej);
        return out;
    }

    /** Copies of a stream's releases (in window order), each with its {@code colours}. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> withColours(Map<String, Map<String, Object>> byKey) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<List<Double>> previous = null;
        int[] previousColours = null;
        for (Map<String, Object> r : byKey.values()) {
            List<List<Double>> centroids = (List<List<Double>>) r.get("centroids");
            int[] colours =
                    previous == null
                            ? CentroidColours.first(centroids.size())
                            : CentroidColours.next(
                                    previous,
                                    previousColours,
                                    centroids,
                                    (List<Double>) r.get("domain_lower"),
                                    (List<Double>) r.get("domain_upper"));
            Map<String, Object> copy = new LinkedHashMap<>(r); // the stored map stays as read
            copy.put("colours", Arrays.stream(colours).boxed().toList());
            out.add(copy);
            previous = centroids;
            previousColours = colours;
        }
        return out;
    }

    /**
     * Keys start with the window start in epoch millis: order numerically by it, then by the rest.
     */
    private static int byWindow(String a, String b) {
        long wa = Long.parseLong(a.substring(0, a.indexOf('|')));
        long wb = Long.parseLong(b.substring(0, b.indexOf('|')));
        return wa != wb ? Long.compare(wa, wb) : a.compareTo(b);
    }
}
