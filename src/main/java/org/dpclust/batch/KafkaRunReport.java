package org.dpclust.batch;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.PrivacyLedger;

/**
 * What a batch run over a Kafka topic reports once its job has finished: the run's public facts
 * (algorithm, guarantee, stream, interval, ε, cap, topics) and its {@link LedgerChange}, as one
 * summary map ({@code --json}) or one human line. Everything here is public: the ledger and the
 * releases are published.
 *
 * @param algorithm the algorithm run
 * @param spec the stream
 * @param interval the public interval charged
 * @param epsilon ε of the release
 * @param change what the run did to the stream's ledger
 * @param kafka the topics written
 */
public record KafkaRunReport(
        BatchAlgorithm algorithm,
        StreamSpec spec,
        PrivacyLedger.Interval interval,
        double epsilon,
        LedgerChange change,
        KafkaSettings kafka) {

    /** The summary, in a fixed key order. */
    public Map<String, Object> summary() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("status", change.charged() ? "charged" : "refused");
        s.put("algorithm", algorithm.name());
        s.put("guarantee", algorithm.guarantee().wireName());
        s.put("stream_id", spec.id());
        s.put("from", Instant.ofEpochMilli(interval.start()).toString());
        s.put("to", Instant.ofEpochMilli(interval.end()).toString());
        s.put("epsilon", epsilon);
        s.put("interval_total", change.intervalTotal());
        s.put("spent", change.spent());
        s.put("cap", spec.cap());
        s.put("centroids_topic", kafka.centroidsTopic());
        s.put("budget_topic", kafka.budgetTopic());
        return s;
    }

    /**
     * One line: what was released and the spend after it, or — for a refused charge — that nothing
     * was released and why.
     */
    public String line() {
        if (change.charged()) {
            return String.format(
                    Locale.ROOT,
                    "released %s (%s) for stream %s [%s, %s): epsilon %s, spent %.6g of cap %s",
                    algorithm.name(),
                    algorithm.guarantee(),
                    spec.id(),
                    Instant.ofEpochMilli(interval.start()),
                    Instant.ofEpochMilli(interval.end()),
                    epsilon,
                    change.spent(),
                    spec.cap());
        }
        return String.format(
                Locale.ROOT,
                "REFUSED: epsilon %s would exceed the cap %s of stream %s (spent %.6g); nothing was"
                        + " released",
                epsilon,
                spec.cap(),
                spec.id(),
                change.spent());
    }
}
