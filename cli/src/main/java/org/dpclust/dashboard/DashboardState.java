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
 * algorithm), so a cluster keeps its colour from window to window; computed when a release arrives
 * (then for the later ones only when it arrives out of order), by index above {@link
 * #MAX_MATCHED_K} centroids. Memory is bounded: the latest {@link #MAX_PER_STREAM} releases and
 * budget events per stream. Thread-safe.
 */
public final class DashboardState {
    /** Releases and budget events kept per stream: the latest ones (older ones are dropped). */
    public static final int MAX_PER_STREAM = 256;

    /** Above this k, a release's colours are its centroid indexes (no matching). */
    public static final int MAX_MATCHED_K = 64;

    private final Map<String, TreeMap<String, Map<String, Object>>> releases = new TreeMap<>();
    private final Map<String, TreeMap<String, int[]>> colours = new TreeMap<>();
    private final Map<String, TreeMap<String, Map<String, Object>>> budget = new TreeMap<>();
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
        TreeMap<String, Map<String, Object>> rel =
                releases.computeIfAbsent(
                        r.getStreamId(), s -> new TreeMap<>(DashboardState::byWindow));
        rel.put(key, AvroJson.toMap(r));
        TreeMap<String, int[]> col =
                colours.computeIfAbsent(
                        r.getStreamId(), s -> new TreeMap<>(DashboardState::byWindow));
        if (rel.size() > MAX_PER_STREAM) {
            col.remove(rel.pollFirstEntry().getKey());
        }
        recolourFrom(rel, col, key);
    }

    /**
     * The colours of the release at {@code key} and of every later one (usually none: releases
     * arrive in window order), each matched to the release before it; work per release added is one
     * matching, not the stream's history.
     */
    @SuppressWarnings("unchecked")
    private static void recolourFrom(
            TreeMap<String, Map<String, Object>> rel, TreeMap<String, int[]> col, String key) {
        if (!rel.containsKey(key)) {
            return; // dropped at once: older than every kept release
        }
        Map.Entry<String, Map<String, Object>> before = rel.lowerEntry(key);
        List<List<Double>> previous =
                before == null ? null : (List<List<Double>>) before.getValue().get("centroids");
        int[] previousColours = before == null ? null : col.get(before.getKey());
        for (Map.Entry<String, Map<String, Object>> e : rel.tailMap(key, true).entrySet()) {
            Map<String, Object> r = e.getValue();
            List<List<Double>> centroids = (List<List<Double>>) r.get("centroids");
            int[] c =
                    previous == null
                                    || previousColours == null
                                    || centroids.size() > MAX_MATCHED_K
                                    || previous.size() > MAX_MATCHED_K
                            ? CentroidColours.first(centroids.size())
                            : CentroidColours.next(
                                    previous,
                                    previousColours,
                                    centroids,
                                    (List<Double>) r.get("domain_lower"),
                                    (List<Double>) r.get("domain_upper"));
            col.put(e.getKey(), c);
            previous = centroids;
            previousColours = c;
        }
    }

    public synchronized void add(BudgetStatus b) {
        recordsRead++;
        if (b.getKind() == org.dpclust.avro.BudgetEventKind.MARKER) {
            return; // the ledger's high-water mark, not a budget event
        }
        String key = b.getWindowStart().toEpochMilli() + "|" + b.getKind() + "|" + b.getAlgorithm();
        TreeMap<String, Map<String, Object>> events =
                budget.computeIfAbsent(
                        b.getStreamId(), s -> new TreeMap<>(DashboardState::byWindow));
        events.put(key, AvroJson.toMap(b));
        if (events.size() > MAX_PER_STREAM) {
            events.pollFirstEntry();
        }
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
            List<Map<String, Object>> rel =
                    withColours(
                            releases.getOrDefault(id, new TreeMap<>()),
                            colours.getOrDefault(id, new TreeMap<>()));
            s.put("stream_id", id);
            s.put(
                    "dimension",
                    rel.isEmpty()
                            ? null
                            : ((List<?>) rel.get(rel.size() - 1).get("domain_lower")).size());
            s.put("releases", rel);
            s.put(
                    "budget_events",
                    new ArrayList<>(budget.getOrDefault(id, new TreeMap<>()).values()));
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
    private static List<Map<String, Object>> withColours(
            TreeMap<String, Map<String, Object>> byKey, TreeMap<String, int[]> colours) {
        List<Map<String, Object>> out = new ArrayList<>(byKey.size());
        for (Map.Entry<String, Map<String, Object>> e : byKey.entrySet()) {
            Map<String, Object> copy =
                    new LinkedHashMap<>(e.getValue()); // stored maps stay as read
            copy.put("colours", Arrays.stream(colours.get(e.getKey())).boxed().toList());
            out.add(copy);
        }
        return out;
    }

    private static int byWindow(String a, String b) {
        long wa = Long.parseLong(a.substring(0, a.indexOf('|')));
        long wb = Long.parseLong(b.substring(0, b.indexOf('|')));
        return wa != wb ? Long.compare(wa, wb) : a.compareTo(b);
    }
}
