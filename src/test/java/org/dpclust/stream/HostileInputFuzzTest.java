package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.HostilePayloads;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.Rejections;
import org.junit.jupiter.api.Test;

/**
 * Hostile input through the job's first two steps, the Kafka deserializer and the validator's rules
 * (then the event-time rules): every hostile payload gets its dead-letter reason with a one-line
 * detail, nothing throws, and decoding allocates memory in proportion to the bytes present, never
 * to a length the bytes claim (a claimed 2<sup>31</sup>-item array is rejected without being
 * materialised). Then random mutations of valid records: whatever the bytes, the deserializer never
 * throws and its allocation stays bounded.
 */
class HostileInputFuzzTest {
    private static final StreamSpec SPEC = StreamTestRecords.spec("");
    private static final Map<String, DomainBounds> BOUNDS = RecordValidator.bounds(List.of(SPEC));

    /** Append time of the fuzzed records; the valid ones' event time is a little before it. */
    private static final long APPEND = 35_000;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** One deserializer, as a source reader has: its codec's readers are built once. */
    private final RawRecordDeserializer deserializer = new RawRecordDeserializer();

    private RawRecord deserialize(byte[] value) {
        List<RawRecord> out = new ArrayList<>();
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("in", 0, 1, null, value);
        deserializer.deserialize(r, new ListCollector<>(out));
        assertEquals(1, out.size());
        RawRecord raw = out.get(0);
        raw.appendTime = APPEND;
        raw.logAppendTime = true;
        return raw;
    }

    /** The reason the job gives: the validator's, else the event-time policy's, else null. */
    private static String reason(RawRecord raw, EventTimePolicy policy) {
        RecordValidator.Problem p = RecordValidator.check(raw, BOUNDS);
        if (p != null) {
            assertFalse(p.detail().isBlank(), "a detail for " + p.reason());
            assertFalse(p.detail().contains("\n"), "a one-line detail: " + p.detail());
            return p.reason();
        }
        return policy.exclusion(SPEC, raw.eventTime, raw.appendTime, raw.logAppendTime);
    }

    private static long allocated() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void everyHostileKindGetsItsReasonWithBoundedMemory() {
        EventTimePolicy policy = new EventTimePolicy(0, 100_000, 10_000, 5_000);
        HostilePayloads gen = new HostilePayloads(11, "s", SPEC.dimension(), APPEND - 1_000);
        deserialize(HostilePayloads.telemetry("s", 0, new double[] {0, 0})); // warm-up
        int n = 0;
        for (HostilePayloads.Payload p : gen.take(HostilePayloads.KINDS.size() * 20)) {
            long before = allocated();
            RawRecord raw = deserialize(p.value());
            long used = allocated() - before;
            int size = p.value() == null ? 0 : p.value().length;
            // the record's own fields, the codec's reader and scratch buffers: a few KiB plus a
            // small multiple of the bytes present (a materialised 2^31-item array is 16 GiB)
            assertTrue(
                    used < 256 * 1024 + 8L * size,
                    p + " allocated " + used + " bytes to be decoded");
            assertEquals(p.reason(), reason(raw, policy), p.toString());
            if (p.reason().equals(Rejections.UNDECODABLE)) {
                assertNotNull(raw.undecodable);
                assertFalse(raw.undecodable.contains("\n"), raw.undecodable);
                assertTrue(raw.undecodable.length() < 300, raw.undecodable);
                assertEquals(Long.MIN_VALUE, raw.eventTime);
            }
            n++;
        }
        assertEquals(HostilePayloads.KINDS.size() * 20, n);
    }

    @Test
    void randomMutationsOfValidRecordsNeverEscapeTheDeserializer() {
        SplittableRandom r = new SplittableRandom(2026);
        EventTimePolicy policy = new EventTimePolicy(0, 100_000, 10_000, 5_000);
        deserialize(HostilePayloads.telemetry("s", 0, new double[] {0, 0})); // warm-up
        int undecodable = 0;
        int total = 20_000;
        for (int i = 0; i < total; i++) {
            double[] x = {r.nextDouble(), r.nextDouble()};
            byte[] b = HostilePayloads.telemetry("s", APPEND - r.nextInt(20_000), x);
            int edits = 1 + r.nextInt(4);
            for (int e = 0; e < edits; e++) {
                int at = r.nextInt(b.length);
                switch (r.nextInt(4)) {
                    case 0 -> b[at] = (byte) r.nextInt(256); // overwrite
                    case 1 -> b[at] ^= (byte) (1 << r.nextInt(8)); // bit flip
                    case 2 -> b = java.util.Arrays.copyOf(b, at); // cut
                    default -> { // insert
                        byte[] c = new byte[b.length + 1];
                        System.arraycopy(b, 0, c, 0, at);
                        c[at] = (byte) r.nextInt(256);
                        System.arraycopy(b, at, c, at + 1, b.length - at);
                        b = c;
                    }
                }
                if (b.length == 0) {
                    break;
                }
            }
            long before = allocated();
            RawRecord raw = deserialize(b);
            long used = allocated() - before;
            assertTrue(used < 256 * 1024 + 8L * b.length, "allocated " + used + " for " + b.length);
            String why = reason(raw, policy); // never throws; null: the mutation is a valid record
            if (Rejections.UNDECODABLE.equals(why)) {
                undecodable++;
            }
        }
        // the test must be able to fail: most mutations break the encoding
        assertTrue(undecodable > total / 2, undecodable + " of " + total + " undecodable");
    }
}
