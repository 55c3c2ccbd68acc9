package org.dpclust.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.ledger.PrivacyLedger;

/**
 * {@code ledger-restart}: what a ledger writer reads when it starts, against a real KRaft broker
 * ({@link SoakBroker}, a JVM of its own). One stream's year of 10-s windows is written to the
 * budget topic, time compressed (decisions taken in memory and committed 8,640 at a time, as the
 * stream job's checkpoints would), with the snapshot topic; at day 1, 30 and 365 (8,640, 259,200
 * and 3,153,600 decisions) a new writer starts and checks the stream's ledger ({@link
 * KafkaLedgerClient#verify}) and charges once. Rows: {@code restart_ms} (open, read, check, one
 * charge), {@code records_read} from the budget topic, and the same restart without the snapshot
 * topic at day 1 and 30 (it reads the partition from its start). Quick mode: days 1 and 2.
 */
public final class LedgerRestartBenchmark implements Benchmark {
    private static final long WINDOW = 10_000;
    private static final long DAY = 86_400_000L;

    @Override
    public String name() {
        return "ledger-restart";
    }

    @Override
    public String description() {
        return "A writer's start after 1, 30 and 365 days of one stream's 10-s windows (real broker):"
                + " restart time and records read, with and without the snapshot topic.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        int[] days = quick ? new int[] {1, 2} : new int[] {1, 30, 365};
        List<Map<String, Object>> rows = new ArrayList<>();
        try (SoakBroker kafka = SoakBroker.start()) {
            rows.addAll(year(kafka, "restart", days, true));
            int[] without = quick ? new int[] {1} : new int[] {1, 30};
            rows.addAll(year(kafka, "restart-nosnap", without, false));
        } catch (Exception e) {
            throw new IllegalStateException("ledger-restart failed: " + e.getMessage(), e);
        }
        return rows;
    }

    private List<Map<String, Object>> year(
            SoakBroker kafka, String topic, int[] days, boolean snapshots) throws Exception {
        KafkaSettings k = settings(kafka, topic);
        TopicAdmin.ensureTopics(k, 1, 1);
        if (!snapshots) {
            try (org.apache.kafka.clients.admin.Admin admin =
                    org.apache.kafka.clients.admin.Admin.create(
                            Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.deleteTopics(List.of(k.budgetSnapshotsTopic())).all().get();
            }
            Thread.sleep(2_000); // the deletion reaches the metadata of new clients
        }
        LedgerSettings ledger =
                LedgerSettings.of(k).withTimeouts(Duration.ofMinutes(5), Duration.ofMinutes(4));
        long perDay = DAY / WINDOW;
        List<Map<String, Object>> rows = new ArrayList<>();
        long w = 0;
        try (KafkaLedgerClient writer = KafkaLedgerClient.open(ledger)) {
            for (int d : days) {
                for (; w < d * perDay; w++) {
                    writer.decide(charge("s", w), LedgerMark.NONE);
                    if ((w + 1) % perDay == 0) {
                        writer.flush();
                        long day = (w + 1) / perDay;
                        if (day % 30 == 0) {
                            System.err.printf("ledger-restart: %s, day %d written%n", topic, day);
                        }
                    }
                }
                writer.flush();
                long started = System.nanoTime();
                long read;
                try (KafkaLedgerClient restarted = KafkaLedgerClient.open(ledger)) {
                    restarted.verify("s");
                    LedgerCharge batch =
                            new LedgerCharge(
                                    "s",
                                    LedgerCharge.Source.BATCH,
                                    "stats",
                                    new PrivacyLedger.Interval(0, WINDOW),
                                    "restart-" + d,
                                    1e-6,
                                    1.0,
                                    DAY,
                                    PrivacyUnit.RECORD);
                    if (!restarted.charge(batch, LedgerMark.NONE).accepted()) {
                        throw new IllegalStateException("the restarted writer refused");
                    }
                    read = restarted.recordsRead();
                }
                long ms = (System.nanoTime() - started) / 1_000_000;
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("benchmark", name());
                row.put("snapshots", snapshots);
                row.put("day", d);
                row.put("decisions", w);
                row.put("restart_ms", ms);
                row.put("records_read", read);
                rows.add(BenchEnvironment.withMachine(row));
                System.err.printf(
                        "ledger-restart: snapshots %s, day %d, %d decisions: restart %d ms, %d"
                                + " records read%n",
                        snapshots, d, w, ms, read);
            }
        }
        return rows;
    }

    /** Window w's stats charge of stream s: ε 10⁻⁶ against a cap of 1 per day, never refused. */
    static LedgerCharge charge(String s, long w) {
        return new LedgerCharge(
                s,
                LedgerCharge.Source.STREAM,
                "stats",
                new PrivacyLedger.Interval(w * WINDOW, (w + 1) * WINDOW),
                "",
                1e-6,
                1.0,
                DAY,
                PrivacyUnit.RECORD);
    }

    /** Kafka settings on {@code kafka} with topics named after {@code topic}, one stream 's'. */
    static KafkaSettings settings(SoakBroker kafka, String topic) {
        return org.dpclust.config.ConfigLoader.parse(
                        """
                        kafka:
                          bootstrap_servers: "%s"
                          topics: {input: %2$s.in, centroids: %2$s.centroids, sketches: %2$s.sketches, budget: %2$s.budget, dlq: %2$s.dlq}
                        streams:
                          - id: s
                            dimension: 1
                            lower: [0]
                            upper: [1]
                            k: 1
                            window: PT10S
                            epsilon_per_release: 0.1
                            budget_cap: 1
                        """
                                .formatted(kafka.bootstrapServers(), topic))
                .kafka();
    }
}
