package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.dpclust.avro.TelemetryRecord;
import org.junit.jupiter.api.Test;

class AvroCodecTest {
    /**
     * A block of 2^31 - 9 features said to fill 8 bytes, in a 30-byte record: Avro's own skip jumps
     * over it by its byte size and Avro's reader would size the array by the claimed count (16 GiB)
     * before reading an item; the codec walks every item and refuses the record at once.
     */
    @Test
    void aBlockClaimingBillionsOfItemsIsRefusedWithoutAllocatingThem() throws IOException {
        AvroCodec<TelemetryRecord> codec = AvroCodec.telemetry();
        byte[] ok =
                codec.encode(
                        TelemetryRecord.newBuilder()
                                .setStreamId("s")
                                .setDeviceId("d")
                                .setEventTime(Instant.ofEpochMilli(5))
                                .setFeatures(List.of())
                                .build());
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        o.write(ok, 0, ok.length - 1); // without the empty array's terminator
        org.apache.avro.io.BinaryEncoder b =
                org.apache.avro.io.EncoderFactory.get().binaryEncoder(o, null);
        b.writeLong(-(long) (Integer.MAX_VALUE - 8));
        b.writeLong(8);
        b.writeDouble(0.5);
        b.writeLong(0);
        b.flush();
        long before = THREADS.getCurrentThreadAllocatedBytes();
        IOException e = assertThrows(IOException.class, () -> codec.decode(o.toByteArray()));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertTrue(
                THREADS.getCurrentThreadAllocatedBytes() - before < 64L << 20,
                "allocation in proportion to the 30 bytes, not to the claimed count");
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean)
                    java.lang.management.ManagementFactory.getThreadMXBean();

    private static TelemetryRecord record() {
        return TelemetryRecord.newBuilder()
                .setStreamId("s")
                .setDeviceId("d")
                .setEventTime(Instant.ofEpochMilli(1234))
                .setFeatures(List.of(1.0, -2.5))
                .build();
    }

    @Test
    void roundTripsAndEncodesDeterministically() throws IOException {
        AvroCodec<TelemetryRecord> c = AvroCodec.telemetry();
        byte[] a = c.encode(record());
        assertArrayEquals(a, AvroCodec.telemetry().encode(record()));
        assertEquals(record(), c.decode(a));
        assertEquals((byte) 0xC3, a[0], "single-object encoding marker");
        assertEquals((byte) 0x01, a[1]);
    }

    /**
     * Features and centroids are {@code array<double>}: they must come back bit for bit, including
     * values a float cannot hold (Avro 1.12.0 narrowed every decoded array element to float,
     * AVRO-4108).
     */
    @Test
    void doubleArraysRoundTripBitForBit() throws IOException {
        List<Double> values =
                List.of(0.1, Math.PI, -1e-300, Double.MAX_VALUE, 1.0 / 3, Math.nextUp(1.0));
        TelemetryRecord r = TelemetryRecord.newBuilder(record()).setFeatures(values).build();
        assertEquals(
                values,
                AvroCodec.telemetry().decode(AvroCodec.telemetry().encode(r)).getFeatures());
    }

    @Test
    void garbageIsAReadableError() {
        AvroCodec<TelemetryRecord> c = AvroCodec.telemetry();
        assertTrue(
                assertThrows(IOException.class, () -> c.decode("hello".getBytes()))
                        .getMessage()
                        .contains("single-object"));
        byte[] ok = c.encode(record());
        byte[] truncated = java.util.Arrays.copyOf(ok, ok.length - 3);
        assertThrows(IOException.class, () -> c.decode(truncated));
        byte[] otherType =
                AvroCodec.rejected()
                        .encode(
                                org.dpclust.avro.RejectedRecord.newBuilder()
                                        .setReason("x")
                                        .setDetail("y")
                                        .setSourceTopic("t")
                                        .setSourcePartition(0)
                                        .setSourceOffset(0)
                                        .setOriginal(java.nio.ByteBuffer.wrap(new byte[0]))
                                        .build());
        assertTrue(
                assertThrows(IOException.class, () -> c.decode(otherType))
                        .getMessage()
                        .contains("fingerprint"));
    }

    /**
     * Every schema in avro/ must be shipped as a version, unchanged: edit by adding a version,
     * never in place.
     */
    @Test
    void everyCurrentSchemaIsAShippedVersion() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("avro"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".avsc")).toList()) {
                Schema current = new Schema.Parser().parse(f.toFile());
                assertTrue(
                        SchemaHistory.versionsOf(current.getFullName()).contains(current),
                        f
                                + " is not among the shipped versions in src/main/resources/avro-history");
            }
        }
    }
}
