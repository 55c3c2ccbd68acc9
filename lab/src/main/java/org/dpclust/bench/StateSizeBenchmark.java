package org.dpclust.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.stream.WindowStateBytes;
import org.dpclust.window.ValidRecord;

/**
 * {@code pipeline-state}: the keyed state one stream's open window occupies in the streaming
 * operator, per summary, at 1,000 and 100,000 records per window (reference configuration: d = 10,
 * k = 10, sketch m = 1000 and r = 100, HST |U| = 4096, record units), serialized with the
 * operator's own Flink serializers ({@link WindowStateBytes}). Statistics and sketch state must not
 * grow with the records; HST state is one count per point of U ({@code bound_bytes} = 8·|U| + 16).
 * Rows: benchmark, summary, records_per_window, state_bytes, bound_bytes (HST only), cores, jvm.
 * Quick mode: 100 and 1,000 records.
 */
public final class StateSizeBenchmark implements Benchmark {
    @Override
    public String name() {
        return "pipeline-state";
    }

    @Override
    public String description() {
        return "Keyed state bytes per stream and open window for each summary at 1k and 100k records per window.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        StreamSpec s =
                ConfigLoader.parse(
                                """
                streams:
                  - id: s
                    dimension: 10
                    lower: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
                    upper: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
                    k: 10
                    window: PT10S
                    epsilon_per_release: 1.0
                    budget_cap: 100
                    public_seed: 3
                    summaries: [stats, ckm, dp-hst]
                    ckm: {m: 1000, r: 100}
                    hst: {universe: 4096}
                """)
                        .streams()
                        .get(0);
        byte[] key = new byte[32];
        key[0] = 1; // a fixed benchmark secret (never a deployment secret)
        PrivacySecret secret = PrivacySecret.of(key);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int n : quick ? new int[] {100, 1000} : new int[] {1000, 100_000}) {
            System.err.printf("pipeline-state: %d records per window%n", n);
            Map<Summary, Long> bytes = WindowStateBytes.of(s, secret, records(n));
            for (Map.Entry<Summary, Long> e : bytes.entrySet()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("benchmark", name());
                row.put("summary", e.getKey().wireName());
                row.put("records_per_window", n);
                row.put("state_bytes", e.getValue());
                if (e.getKey() == Summary.DP_HST) {
                    row.put("bound_bytes", 8L * s.hstUniverse() + 16);
                }
                rows.add(BenchEnvironment.withMachine(row));
            }
        }
        return rows;
    }

    private static List<ValidRecord> records(int n) {
        Random rnd = new Random(17);
        List<ValidRecord> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ValidRecord r = new ValidRecord();
            r.streamId = "s";
            r.deviceId = "device-" + (i % 1000);
            r.eventTime = i % 10_000;
            r.features = new double[10];
            for (int j = 0; j < 10; j++) {
                r.features[j] = rnd.nextDouble();
            }
            l.add(r);
        }
        return l;
    }
}
