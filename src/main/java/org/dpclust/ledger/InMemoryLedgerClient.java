package org.dpclust.ledger;

import java.util.HashMap;
import java.util.Map;

/**
 * The ledger protocol of {@link KafkaLedgerClient} without Kafka, for unit tests of callers (an
 * operator test harness) and offline tools: the same charge keys, sequence numbers, markers,
 * idempotent replay and history checks ({@link LedgerHistory}), on records held in memory under a
 * fixed topic id. {@link #wipe} forgets everything, as an emptied budget topic would. One instance
 * is one budget topic; it is thread-safe.
 */
public final class InMemoryLedgerClient implements LedgerClient {
    private final String topic;
    private String topicId;
    private final Map<String, LedgerHistory> streams = new HashMap<>();
    private final Map<String, org.dpclust.avro.BudgetStatus> topicRecords = new HashMap<>();

    public InMemoryLedgerClient(String topic, String topicId) {
        this.topic = topic;
        this.topicId = topicId;
    }

    @Override
    public synchronized LedgerDecision charge(LedgerCharge c, LedgerMark seen) {
        LedgerHistory h = streams.computeIfAbsent(c.stream(), LedgerHistory::new);
        h.check(topic, topicId, seen == null ? LedgerMark.NONE : seen);
        LedgerHistory.Pending p = h.decide(c, topicId, topicRecords::get);
        if (p.marker() != null) {
            topicRecords.put(p.decision().status().getChargeKey(), p.decision().status());
            h.add(p.decision().status());
            h.add(p.marker());
        }
        return p.decision();
    }

    /** Forgets every stream's history and takes a new topic id (a deleted and recreated topic). */
    public synchronized void wipe(String newTopicId) {
        streams.clear();
        topicRecords.clear();
        topicId = newTopicId;
    }

    @Override
    public void close() {}
}
