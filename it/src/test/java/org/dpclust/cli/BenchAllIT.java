package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.bench.PipelineQuickRows;
import org.dpclust.bench.SoakQuickRows;
import org.junit.jupiter.api.Test;

/**
 * {@code dpclust bench all --quick --json}: every registered benchmark runs, in registration order,
 * including the end-to-end pipeline ones (in-process broker and MiniCluster, hence an integration
 * test). The rows of {@code pipeline} and {@code soak} are also checked against what their quick
 * runs must show ({@link PipelineQuickRows}, {@link SoakQuickRows}): one run of each in CI.
 */
class BenchAllIT {
    /**
     * Every registered benchmark runs, in registration order; the stats, hst and lloyd rows have
     * their keys; every row is physically plausible ({@link #assertPhysicallyPlausible}).
     */
    @Test
    void quickAllRunsEveryRegisteredBenchmark() throws Exception {
        List<JsonNode> rows =
                BenchCommandTest.jsonRows(
                        BenchCommandTest.run("bench", "all", "--quick", "--json"));
        List<String> names = new ArrayList<>();
        rows.forEach(r -> names.add(r.get("benchmark").asText()));
        List<String> expectedOrder =
                List.of(
                        "sketch-update",
                        "sketch-update-batch",
                        "sketch-update-block",
                        "clompr-decode",
                        "stats-update",
                        "hst-count",
                        "phase1-fold",
                        "lloyd-iteration",
                        "csv-parse",
                        "dp_local_search_iteration",
                        "pipeline",
                        "pipeline-device",
                        "pipeline-nonprivate",
                        "pipeline-hot-stream",
                        "pipeline-input",
                        "pipeline-state",
                        "ledger-year",
                        "ledger-restart",
                        "ledger-writers",
                        "fleet");
        int last = -1;
        for (String name : expectedOrder) {
            int at = names.indexOf(name);
            assertTrue(at > last, name + " missing or out of order in " + names);
            last = at;
        }
        for (JsonNode r : rows) {
            assertTrue(r.has("cores") && r.has("jvm"), r.toString());
            switch (r.get("benchmark").asText()) {
                case "sketch-update-batch", "sketch-update-block", "stats-update", "hst-count" ->
                        BenchCommandTest.assertBoundRow(r, r.get("benchmark").asText());
                case "lloyd-iteration" ->
                        assertTrue(r.get("iterations").asInt() >= 1, r.toString());
                case "fleet" ->
                        assertTrue(
                                r.get("streams").asInt() == 10
                                        && r.get("windows").asInt() >= 10
                                        && r.get("released").asDouble() > 0
                                        && r.get("broker_connections").asInt() > 0
                                        && "RUNNING".equals(r.get("job").asText()),
                                r.toString());
                case "ledger-restart" ->
                        assertTrue(
                                r.get("restart_ms").asLong() > 0
                                        && r.get("records_read").asLong() > 0
                                        && r.get("decisions").asLong()
                                                == 8_640L * r.get("day").asInt(),
                                r.toString());
                case "ledger-year" ->
                        assertTrue(
                                r.get("charge_ns").asLong() > 0
                                        && r.get("decisions").asLong()
                                                >= 3L * 1440 * r.get("day").asInt(),
                                r.toString());
                default -> {}
            }
            assertPhysicallyPlausible(r);
        }
        PipelineQuickRows.check(
                typed(
                        rows.stream()
                                .filter(
                                        r -> {
                                            String b = r.get("benchmark").asText();
                                            return b.startsWith("pipeline")
                                                    && !b.equals("pipeline-state");
                                        })
                                .toList()));
        SoakQuickRows.check(
                typed(
                        rows.stream()
                                .filter(r -> r.get("benchmark").asText().equals("soak"))
                                .toList()));
    }

    /**
     * JSON rows as the maps the benchmarks returned: integers as {@code Long}, other numbers as
     * {@code Double} (and Jackson's strings for non-finite doubles, {@code "NaN"} and {@code
     * "Infinity"}, back as doubles), arrays as lists.
     */
    static List<Map<String, Object>> typed(List<JsonNode> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (JsonNode r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            r.fields().forEachRemaining(e -> m.put(e.getKey(), value(e.getValue())));
            out.add(m);
        }
        return out;
    }

    private static Object value(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.longValue();
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return switch (v.textValue()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> v.textValue();
            };
        }
        if (v.isArray()) {
            List<Object> list = new ArrayList<>();
            v.forEach(x -> list.add(value(x)));
            return list;
        }
        if (v.isObject()) {
            return typed(List.of(v)).get(0);
        }
        return null;
    }

    /** Floor of any timing: 0.1 ns per unit of work (an arithmetic op, a term, a coordinate). */
    static final double NS_PER_UNIT_FLOOR = 0.1;

    /** Ceiling of the end-to-end rate through Kafka and Flink in one process on a few cores. */
    static final double PIPELINE_RECORDS_PER_SECOND_CEILING = 1e8;

    /**
     * Every timing is finite and above a floor derived from the work it measures (at least {@value
     * #NS_PER_UNIT_FLOOR} ns per unit of work), every rate below the matching ceiling and
     * consistent with its time; a differential timing may instead be reported as unresolved, with
     * no time.
     */
    static void assertPhysicallyPlausible(JsonNode r) {
        String row = r.toString();
        switch (r.get("benchmark").asText()) {
            case "sketch-update",
                    "sketch-update-batch",
                    "sketch-update-block",
                    "stats-update",
                    "hst-count" -> {
                // every record's d coordinates are read at least
                double ns = r.get("ns_per_record").asDouble();
                assertAtLeast(ns, NS_PER_UNIT_FLOOR * r.get("d").asInt(), "ns_per_record", row);
                assertAtLeast(
                        r.get("bound_ns_per_record").asDouble(),
                        NS_PER_UNIT_FLOOR * r.get("d").asInt(),
                        "bound_ns_per_record",
                        row);
                assertRateMatches(r.get("records_per_second").asDouble(), 1e9 / ns, row);
            }
            case "phase1-fold" -> {
                // every record's d coordinates are read at least, batched or not
                assertAtLeast(
                        r.get("ns_per_record").asDouble(),
                        NS_PER_UNIT_FLOOR * r.get("d").asInt(),
                        "ns_per_record",
                        row);
                assertAtLeast(
                        r.get("one_by_one_ns_per_record").asDouble(),
                        NS_PER_UNIT_FLOOR * r.get("d").asInt(),
                        "one_by_one_ns_per_record",
                        row);
            }
            case "clompr-decode-warm" -> {
                // the warm decode still fits k centroids against all m frequencies
                assertAtLeast(
                        r.get("decode_seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * r.get("m").asInt() * r.get("k").asInt(),
                        "decode_seconds",
                        row);
                assertTrue(r.get("cold_decode_seconds").asDouble() > 0, row);
                assertTrue(r.get("warm_relative_residual").asDouble() >= 0, row);
            }
            case "clompr-decode" ->
                    // a decode touches each of the m frequencies of k·replicates centroids
                    assertAtLeast(
                            r.get("decode_seconds").asDouble() * 1e9,
                            NS_PER_UNIT_FLOOR * r.get("m").asInt() * r.get("k").asInt(),
                            "decode_seconds",
                            row);
            case "csv-parse" -> {
                // every byte of the file is read at least once, in at least the time of reading
                // its lines alone
                assertAtLeast(
                        r.get("seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * r.get("bytes").asLong(),
                        "seconds",
                        row);
                assertTrue(r.get("fraction_of_bound").asDouble() < 1.1, row);
            }
            case "lloyd-fit" ->
                    // every restart reads every point's coordinates at least once
                    assertAtLeast(
                            r.get("seconds").asDouble() * 1e9,
                            NS_PER_UNIT_FLOOR
                                    * r.get("n").asInt()
                                    * r.get("d").asInt()
                                    * r.get("restarts").asInt(),
                            "seconds",
                            row);
            case "lloyd-iteration" -> {
                // an iteration reads every point's d coordinates at least once (the bounded
                // assignment step may skip the n·k distances)
                int n = r.get("n").asInt();
                int kd = r.get("d").asInt();
                if (assertResolvedOrSaysWhy(r, "seconds_per_iteration")) {
                    double perIteration = r.get("seconds_per_iteration").asDouble() * 1e9;
                    assertAtLeast(
                            perIteration, NS_PER_UNIT_FLOOR * n * kd, "seconds_per_iteration", row);
                    assertAtLeast(
                            r.get("ns_per_record").asDouble(),
                            NS_PER_UNIT_FLOOR * kd * 0.999, // rounded to 3 decimals
                            "ns_per_record",
                            row);
                    assertRateMatches(
                            r.get("records_per_second").asDouble(), n / (perIteration / 1e9), row);
                }
            }
            case "dp_local_search_iteration" -> {
                assertAtLeast(
                        r.get("cost_matrix_seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * r.get("demand_size").asInt() * r.get("n").asInt(),
                        "cost_matrix_seconds",
                        row);
                if (assertResolvedOrSaysWhy(r, "seconds_per_iteration")) {
                    int pairs =
                            (r.get("n").asInt() - r.get("k").asInt())
                                    * r.get("demand_size").asInt();
                    assertAtLeast(
                            r.get("seconds_per_iteration").asDouble() * 1e9,
                            NS_PER_UNIT_FLOOR * pairs,
                            "seconds_per_iteration",
                            row);
                }
            }
            case "hst_vs_kmedianpp_init" -> {
                int n = r.get("n").asInt();
                int k = r.get("k").asInt();
                assertAtLeast(
                        r.get("hst_build_seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * n,
                        "hst_build_seconds",
                        row);
                assertAtLeast(
                        r.get("hst_init_seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * k,
                        "hst_init_seconds",
                        row);
                assertAtLeast(
                        r.get("kmedianpp_seconds").asDouble() * 1e9,
                        NS_PER_UNIT_FLOOR * n * k,
                        "kmedianpp_seconds",
                        row);
            }
            case "pipeline",
                    "pipeline-stats",
                    "pipeline-ckm",
                    "pipeline-dp-hst",
                    "pipeline-fast",
                    "pipeline-device",
                    "pipeline-stats-device",
                    "pipeline-ckm-device",
                    "pipeline-dp-hst-device",
                    "pipeline-fast-device",
                    "pipeline-fast-long",
                    "pipeline-nonprivate",
                    "pipeline-nonprivate-long",
                    "pipeline-hot-stream",
                    "pipeline-input" -> {
                double records = r.get("records").asDouble();
                double seconds = r.get("seconds").asDouble();
                double rate = r.get("records_per_second").asDouble();
                assertAtLeast(seconds * 1e9, NS_PER_UNIT_FLOOR * records, "seconds", row);
                assertTrue(
                        rate <= PIPELINE_RECORDS_PER_SECOND_CEILING, "rate above ceiling: " + row);
                assertRateMatches(rate, records / seconds, row);
                assertEquals(0, r.get("late_records").asInt(), row);
                if (r.has("fraction_of_avro")) {
                    double f = r.get("fraction_of_avro").asDouble();
                    assertTrue(f > 0 && Double.isFinite(f), "fraction_of_avro: " + row);
                }
                if (r.has("fraction_of_record_units")) {
                    // device rows: the ratio of two positive rates of this run, each under the
                    // rate ceiling; device units do strictly more per record (hash, reservoir) but
                    // fold fewer records into the summaries, so no tighter bound holds in general
                    double f = r.get("fraction_of_record_units").asDouble();
                    assertTrue(f > 0 && Double.isFinite(f), "fraction_of_record_units: " + row);
                    assertEquals("device", r.get("privacy_unit").asText(), row);
                    assertTrue(r.get("contribution_bound").asInt() >= 1, row);
                }
            }
            case "pipeline-state" -> assertTrue(r.get("state_bytes").asLong() > 0, row);
            case "soak" -> {
                // a sample of the live job: elapsed time, monotone counts, sizes of real memory
                assertTrue(r.get("minutes").asDouble() > 0, row);
                assertTrue(r.get("records_written").asLong() >= 0, row);
                assertTrue(r.get("releases").asLong() >= 0, row);
                assertTrue(r.get("checkpoints").asLong() >= 0, row);
                assertTrue(r.get("heap_after_gc_mb").asDouble() > 0, row);
                assertTrue(r.get("broker_heap_after_gc_mb").asDouble() > 0, row);
                assertTrue(r.get("checkpoint_kb").asDouble() >= 0, row);
                // a sample that read releases (max >= 0) has a finite mean no larger than its max
                if (r.get("latency_ms_max").asLong() >= 0) {
                    double mean = r.get("latency_ms_mean").asDouble();
                    assertTrue(Double.isFinite(mean), row);
                    assertTrue(r.get("latency_ms_max").asDouble() >= mean, row);
                }
            }
            case "ledger-year" -> {
                // a decision decides and folds a record: at least 100 ns, and a day's windows
                assertAtLeast(r.get("charge_ns").asDouble(), 100, "charge_ns", row);
                assertTrue(r.get("ratio_to_day1").asDouble() > 0, row);
                assertTrue(r.get("heap_bytes").asLong() >= 0, row);
            }
            case "ledger-restart" -> {
                // a start reads something and takes time; it never reads more than was written
                // (one decision and marker per commit of 8,640, plus the start's own charge)
                assertAtLeast(r.get("restart_ms").asDouble(), 1, "restart_ms", row);
                assertTrue(r.get("records_read").asLong() <= 2 * r.get("decisions").asLong(), row);
            }
            case "ledger-writers" -> {
                // a round commits at least one transaction; fences only ever add retries
                assertAtLeast(r.get("flush_ms_p50").asDouble(), 1, "flush_ms_p50", row);
                assertTrue(r.get("flush_ms_max").asLong() >= r.get("flush_ms_p50").asLong(), row);
                // two writers of a partition fence each other at every round (docs/ledger.md)
                assertTrue(
                        r.get("writers").asInt() == 1 || r.get("retries_per_round").asDouble() > 0,
                        row);
            }
            case "fleet" -> {
                // fractions of the windows, lags after the close, counts of real resources
                double released = r.get("released").asDouble();
                double onTime = r.get("on_time").asDouble();
                assertTrue(0 <= onTime && onTime <= released && released <= 1, row);
                assertTrue(r.get("lag_p99_ms").asLong() >= r.get("lag_p50_ms").asLong(), row);
                assertTrue(r.get("startup_s").asDouble() > 0, row);
                assertTrue(r.get("threads").asInt() > 0, row);
            }
            default -> fail("no plausibility rule for " + row);
        }
    }

    /** True if the row has the timing; else it must say why it is unresolved. */
    private static boolean assertResolvedOrSaysWhy(JsonNode r, String timing) {
        if (r.has(timing)) {
            assertFalse(r.has("unresolved"), r.toString());
            return true;
        }
        assertTrue(r.path("unresolved").asText().contains("too small to resolve"), r.toString());
        return false;
    }

    private static void assertAtLeast(double value, double floor, String key, String row) {
        assertTrue(
                Double.isFinite(value) && value >= floor,
                key + " " + value + " below the physical floor " + floor + ": " + row);
    }

    private static void assertRateMatches(double rate, double expected, String row) {
        assertEquals(expected, rate, expected * 0.01 + 1, "rate inconsistent with time: " + row);
    }
}
