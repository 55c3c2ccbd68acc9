package org.dpclust.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.dpclust.config.KafkaSettings;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.LedgerSettings;

/**
 * {@code ledger-writers}: what it costs when several TaskManagers charge one budget topic, against
 * a real KRaft broker ({@link SoakBroker}, a JVM of its own). A stream job on W TaskManagers holds
 * W ledger clients (one per TaskManager JVM, {@code SharedLedgerClient}); each charges the streams
 * its subtasks own, and all of them write every budget partition their streams hash to, under the
 * partition's one transactional id (docs/ledger.md): each commit fences the other writers of the
 * partition, so a writer's next flush finds its producer fenced, starts a new one, reads what the
 * others committed, decides its deferred charges again and commits. This benchmark models that with
 * W {@link KafkaLedgerClient}s in one JVM (to the broker they are W writers, as W TaskManagers
 * would be) on a budget topic of 4 partitions: 1,000 streams dealt out to them, and per round (a
 * checkpoint) one stats charge per stream, then every client flushes at once. Rows per W (1, 2, 4):
 * {@code flush_ms_p50}, {@code flush_ms_max} (a round: from the common start to the last client's
 * flush done; the first round, which opens the writers, excluded), {@code retries_per_round} (flush
 * steps re-run, summed over clients: {@link KafkaLedgerClient#retries}), {@code
 * ratio_to_one_writer} (p50 over W = 1's). Every charge must be accepted and no flush may fail (the
 * streams are disjoint, so re-deciding never changes a decision). Quick mode: 40 streams, W 1 and
 * 2, 4 rounds.
 */
public final class LedgerWritersBenchmark implements Benchmark {
    private static final int BUDGET_PARTITIONS = 4;

    @Override
    public String name() {
        return "ledger-writers";
    }

    @Override
    public String description() {
        return "Several TaskManagers' ledger writers on one budget topic (real broker): the time of a"
                + " checkpoint's flush and the fenced retries with 1, 2 and 4 writers.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        int[] writers = quick ? new int[] {1, 2} : new int[] {1, 2, 4};
        int streams = quick ? 40 : 1_000;
        int rounds = quick ? 4 : 21;
        List<Map<String, Object>> rows = new ArrayList<>();
        try (SoakBroker kafka = SoakBroker.start()) {
            double one = Double.NaN;
            for (int w : writers) {
                Map<String, Object> row = rounds(kafka, w, streams, rounds);
                double p50 = ((Number) row.get("flush_ms_p50")).doubleValue();
                if (w == 1) {
                    one = p50;
                }
                row.put("ratio_to_one_writer", p50 / one);
                rows.add(BenchEnvironment.withMachine(row));
            }
        } catch (Exception e) {
            throw new IllegalStateException("ledger-writers failed: " + e.getMessage(), e);
        }
        return rows;
    }

    private Map<String, Object> rounds(SoakBroker kafka, int w, int streams, int rounds)
            throws Exception {
        KafkaSettings k = LedgerRestartBenchmark.settings(kafka, "writers" + w);
        TopicAdmin.ensureTopics(k, 1, BUDGET_PARTITIONS);
        LedgerSettings ledger =
                LedgerSettings.of(k).withTimeouts(Duration.ofMinutes(3), Duration.ofMinutes(2));
        List<KafkaLedgerClient> clients = new ArrayList<>();
        List<List<String>> owned = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(w);
        try {
            for (int i = 0; i < w; i++) {
                clients.add(KafkaLedgerClient.open(ledger));
                owned.add(new ArrayList<>());
            }
            for (int s = 0; s < streams; s++) {
                owned.get(s % w).add("s" + s);
            }
            for (int i = 0; i < w; i++) {
                clients.get(i).register(owned.get(i));
            }
            long[] ms = new long[rounds - 1];
            long retriesBefore = 0;
            for (int r = 0; r < rounds; r++) {
                if (r == 1) {
                    retriesBefore = retries(clients);
                }
                CyclicBarrier start = new CyclicBarrier(w);
                List<Future<Long>> done = new ArrayList<>();
                for (int i = 0; i < w; i++) {
                    KafkaLedgerClient c = clients.get(i);
                    List<String> mine = owned.get(i);
                    long window = r;
                    done.add(
                            pool.submit(
                                    () -> {
                                        try {
                                            decideAll(c, mine, window);
                                        } catch (RuntimeException e) {
                                            start.reset(); // the others stop waiting, and fail
                                            throw e;
                                        }
                                        start.await(5, TimeUnit.MINUTES);
                                        long t0 = System.nanoTime();
                                        c.flush();
                                        return t0;
                                    }));
                }
                long first = Long.MAX_VALUE;
                for (Future<Long> f : done) {
                    first = Math.min(first, f.get(10, TimeUnit.MINUTES));
                }
                long elapsed = System.nanoTime() - first;
                if (r > 0) {
                    ms[r - 1] = elapsed / 1_000_000;
                }
            }
            long retries = retries(clients) - retriesBefore;
            Arrays.sort(ms);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", name());
            row.put("writers", w);
            row.put("streams", streams);
            row.put("budget_partitions", BUDGET_PARTITIONS);
            row.put("rounds", rounds - 1);
            row.put("flush_ms_p50", ms[ms.length / 2]);
            row.put("flush_ms_max", ms[ms.length - 1]);
            row.put("retries_per_round", (double) retries / (rounds - 1));
            System.err.printf(
                    "ledger-writers: %d writer(s), %d streams: flush p50 %d ms, max %d ms, %.1f"
                            + " retries per round%n",
                    w,
                    streams,
                    ms[ms.length / 2],
                    ms[ms.length - 1],
                    (double) retries / (rounds - 1));
            return row;
        } finally {
            pool.shutdownNow();
            for (KafkaLedgerClient c : clients) {
                c.close();
            }
        }
    }

    /** One stats charge of window {@code window} for each of {@code streams}: all accepted. */
    private static void decideAll(KafkaLedgerClient c, List<String> streams, long window) {
        for (String s : streams) {
            if (!c.decide(LedgerRestartBenchmark.charge(s, window), LedgerMark.NONE).accepted()) {
                throw new IllegalStateException("refused: " + s + " window " + window);
            }
        }
    }

    private static long retries(List<KafkaLedgerClient> clients) {
        long n = 0;
        for (KafkaLedgerClient c : clients) {
            n += c.retries();
        }
        return n;
    }
}
