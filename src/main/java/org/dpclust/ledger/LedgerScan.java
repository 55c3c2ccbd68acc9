package org.dpclust.ledger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream job's start-up look at the budget topic, in one pass with one consumer whatever the
 * number of streams: checks every configured stream's ledger as a charge would (compacted topic, a
 * marker for any decisions, decisions 1..h complete, the marker's topic id, records only in the
 * stream's partition) and returns, per stream, the end of its latest charged interval (the public
 * schedule of a stream without state resumes after it). Per stream it holds an {@link
 * LedgerHistory#audit} history (no decisions, no budget); records are read as a stream, never held.
 * With the snapshot topic ({@link LedgerSnapshot}) each stream starts from its latest snapshot and
 * each partition is read from the lowest offset its streams' snapshots cover, so the read does not
 * grow with the history. Everything it reads is public.
 */
public final class LedgerScan {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerScan.class);
    private static final long PROGRESS_EVERY = 1_000_000;

    private LedgerScan() {}

    /**
     * Checks the ledgers of {@code streams} and returns each one's latest charged interval end
     * (streams never charged are absent).
     *
     * @throws LedgerHistoryException if the topic is not compacted or a stream's history is missing
     * @throws LedgerUnavailableException if the topic cannot be described in time
     * @throws IllegalStateException if it cannot be read to its end within {@code timeout}
     */
    public static Map<String, Long> lastChargedEnds(
            LedgerSettings settings, Collection<String> streams, Duration timeout) {
        String topicId;
        int partitions;
        boolean withSnapshots;
        try (KafkaLedgerClient client = KafkaLedgerClient.open(settings)) {
            topicId = client.topicId();
            partitions = client.partitions();
            withSnapshots = client.snapshots();
        }
        Map<String, LedgerHistory> histories = new LinkedHashMap<>();
        streams.forEach(s -> histories.put(s, LedgerHistory.audit(s)));
        AvroCodec<BudgetStatus> codec = AvroCodec.budget();
        Map<String, Integer> partitionOf = new HashMap<>();
        Map<String, LedgerSnapshot> snapshots =
                withSnapshots
                        ? restore(settings, topicId, partitions, histories, codec, timeout)
                        : Map.of();
        long started = System.nanoTime();
        long[] read = {0};
        try (TopicReader reader = new TopicReader(settings.kafka(), settings.topic())) {
            Map<Integer, Long> end = new HashMap<>();
            reader.settledEndOffsets(timeout).forEach((tp, o) -> end.put(tp.partition(), o));
            long[] from = new long[reader.partitionCount()];
            java.util.Arrays.fill(from, Long.MAX_VALUE);
            for (String s : histories.keySet()) {
                int p = KafkaLedgerClient.partitionFor(s, partitions);
                LedgerSnapshot snap = snapshots.get(s);
                if (snap != null) {
                    snap.requireWithin(settings.topic(), end.getOrDefault(p, 0L));
                }
                long c = coveredBelow(snapshots, s);
                from[p] = Math.min(from[p], c);
            }
            if (snapshots.size() == histories.size()) {
                // every stream starts from a snapshot written with this partition count: a
                // partition of none of them is not read at all. Otherwise everything is read, so
                // records of a stream outside its partition are found.
                for (int p = 0; p < from.length; p++) {
                    reader.seek(p, from[p] == Long.MAX_VALUE ? end.getOrDefault(p, 0L) : from[p]);
                }
            }
            reader.readToEnd(
                    timeout,
                    r -> {
                        if (++read[0] % PROGRESS_EVERY == 0) {
                            LOG.info(
                                    "budget topic '{}': {} records read",
                                    settings.topic(),
                                    read[0]);
                        }
                        String id = streamOf(r);
                        LedgerHistory h = histories.get(id);
                        if (h == null || r.offset() < coveredBelow(snapshots, id)) {
                            return; // another stream's, or in the stream's snapshot
                        }
                        int expected =
                                partitionOf.computeIfAbsent(
                                        h.stream(),
                                        s -> KafkaLedgerClient.partitionFor(s, partitions));
                        if (r.partition() != expected) {
                            throw elsewhere(settings, h.stream(), r.partition(), expected);
                        }
                        h.add(KafkaLedgerClient.decode(codec, r));
                    });
        } catch (KafkaException e) {
            throw new IllegalStateException(
                    "cannot read budget topic '" + settings.topic() + "': " + e.getMessage(), e);
        }
        Map<String, Long> out = new HashMap<>();
        for (LedgerHistory h : histories.values()) {
            h.check(settings.topic(), topicId, LedgerMark.NONE);
            if (h.lastChargedEnd() != Long.MIN_VALUE) {
                out.put(h.stream(), h.lastChargedEnd());
            }
        }
        LOG.info(
                "budget topic '{}': {} records read in {} ms, {} streams checked",
                settings.topic(),
                read[0],
                (System.nanoTime() - started) / 1_000_000,
                histories.size());
        return out;
    }

    /**
     * Replaces the histories of streams with a snapshot (of this topic id, in their partition) by
     * its audit view; returns the snapshots.
     */
    private static Map<String, LedgerSnapshot> restore(
            LedgerSettings settings,
            String topicId,
            int partitions,
            Map<String, LedgerHistory> histories,
            AvroCodec<BudgetStatus> codec,
            Duration timeout) {
        Map<String, LedgerSnapshot> latest =
                LedgerSnapshot.latest(
                        settings,
                        topicId,
                        histories.keySet(),
                        s -> KafkaLedgerClient.partitionFor(s, partitions),
                        codec,
                        timeout);
        latest.forEach((s, snap) -> histories.put(s, snap.history().asAudit()));
        return latest;
    }

    /** The offset below which a stream's records are in its snapshot (0 without one). */
    private static long coveredBelow(Map<String, LedgerSnapshot> snapshots, String stream) {
        LedgerSnapshot snap = snapshots.get(stream);
        return snap == null ? 0 : snap.coveredOffset();
    }

    /** The stream of a budget record: its key up to the first '|' (charge keys and markers). */
    static String streamOf(ConsumerRecord<byte[], byte[]> r) {
        byte[] k = r.key();
        if (k == null) {
            return null;
        }
        for (int i = 0; i < k.length; i++) {
            if (k[i] == '|') {
                return new String(k, 0, i, StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    static LedgerHistoryException elsewhere(
            LedgerSettings settings, String stream, int found, int expected) {
        return new LedgerHistoryException(
                "budget topic '"
                        + settings.topic()
                        + "' holds ledger records of stream '"
                        + stream
                        + "' in partition "
                        + found
                        + ", not in its partition "
                        + expected
                        + ": the partition count changed; restore the topic's partition count"
                        + " (docs/ledger.md)");
    }
}
