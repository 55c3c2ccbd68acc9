package org.dpclust.ledger;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream's ledger state as of an offset of its budget-topic partition: the {@link
 * LedgerHistory} built from every record of the stream below {@code coveredOffset}. Written by the
 * ledger writer to the compacted snapshot topic ({@link #topicFor}, key: the stream id) in the same
 * transaction as decisions, so a writer that starts reads the stream's latest snapshot and only the
 * partition's records from {@code coveredOffset} on: a restart reads a bounded amount, not the
 * history (docs/ledger.md). The decisions themselves stay on the budget topic, the audit trail.
 *
 * <p>Trusted like the budget topic (same ACLs). A snapshot counts only for the budget topic id and
 * partition it names; a snapshot whose offset lies beyond the partition's end is missing history
 * and refused. Encoding: magic {@code DPLS}, version 1, then the fields with {@link
 * java.io.DataOutput} (BudgetStatus records as single-object Avro); internal to dpclust, not a
 * public wire format.
 */
public record LedgerSnapshot(
        String stream, String topicId, int partition, long coveredOffset, LedgerHistory history) {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerSnapshot.class);
    private static final int MAGIC = 0x44504C53; // "DPLS"
    private static final int VERSION = 1;

    /** The snapshot topic of budget topic {@code budgetTopic}: {@code <budget topic>.snapshots}. */
    public static String topicFor(String budgetTopic) {
        return org.dpclust.config.KafkaSettings.snapshotsTopicOf(budgetTopic);
    }

    public byte[] encode(AvroCodec<BudgetStatus> codec) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(stream);
            out.writeUTF(topicId);
            out.writeInt(partition);
            out.writeLong(coveredOffset);
            history.write(out, codec);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the ledger snapshot of " + stream, e);
        }
    }

    /**
     * Decodes a snapshot.
     *
     * @throws IOException if the bytes are not a snapshot of this version
     */
    public static LedgerSnapshot decode(byte[] value, AvroCodec<BudgetStatus> codec)
            throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(value));
        if (in.readInt() != MAGIC) {
            throw new IOException("not a ledger snapshot");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("ledger snapshot version " + version + " (this build reads 1)");
        }
        String stream = in.readUTF();
        String topicId = in.readUTF();
        int partition = in.readInt();
        long covered = in.readLong();
        LedgerHistory h = LedgerHistory.read(in, codec);
        if (!h.stream().equals(stream)) {
            throw new IOException("ledger snapshot of " + stream + " holds " + h.stream());
        }
        return new LedgerSnapshot(stream, topicId, partition, covered, h);
    }

    /**
     * The latest snapshot of each of {@code streams} on the snapshot topic of {@code settings}'s
     * budget topic that counts: of budget topic id {@code topicId} and in the partition {@code
     * partitionOf} gives its stream (the writers' and the start-up scan's one reading of it). An
     * unreadable snapshot is ignored (the partition is then read from further back).
     */
    static Map<String, LedgerSnapshot> latest(
            LedgerSettings settings,
            String topicId,
            Set<String> streams,
            ToIntFunction<String> partitionOf,
            AvroCodec<BudgetStatus> codec,
            Duration timeout) {
        Map<String, LedgerSnapshot> latest = new HashMap<>();
        try (TopicReader r = new TopicReader(settings.kafka(), topicFor(settings.topic()))) {
            r.readToEnd(
                    timeout,
                    rec -> {
                        String s =
                                rec.key() == null
                                        ? null
                                        : new String(rec.key(), StandardCharsets.UTF_8);
                        if (s == null || !streams.contains(s) || rec.value() == null) {
                            return;
                        }
                        try {
                            LedgerSnapshot snap = decode(rec.value(), codec);
                            if (snap.topicId().equals(topicId)
                                    && snap.partition() == partitionOf.applyAsInt(s)) {
                                latest.merge(
                                        s,
                                        snap,
                                        (a, b) -> b.coveredOffset() >= a.coveredOffset() ? b : a);
                            }
                        } catch (IOException | RuntimeException e) {
                            LOG.warn("ignoring an unreadable ledger snapshot of {}: {}", s, e);
                        }
                    });
        }
        return latest;
    }

    /**
     * Refuses this snapshot if it covers more of its partition than the partition holds ({@code
     * end}): the history it summarises is gone from the topic.
     */
    void requireWithin(String budgetTopic, long end) {
        if (coveredOffset > end) {
            throw new LedgerHistoryException(
                    "budget topic '"
                            + budgetTopic
                            + "' partition "
                            + partition
                            + " ends at offset "
                            + end
                            + " but the ledger snapshot of stream '"
                            + stream
                            + "' covers it up to "
                            + coveredOffset
                            + ": its history is gone from the topic; see docs/operations.md,"
                            + " \"Restoring the budget topic\"");
        }
    }
}
