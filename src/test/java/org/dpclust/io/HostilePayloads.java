package org.dpclust.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.SchemaNormalization;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.TelemetryRecord;

/**
 * A seeded generator of hostile input-topic records, each with the dead-letter reason the job must
 * give it: random bytes, truncated and over-long Avro, a valid body under another schema's
 * fingerprint, other dpclust record types, claimed gigantic arrays and strings, deeply nested junk,
 * empty and null values, event times at the long extremes, non-finite features, unknown streams and
 * wrong dimensions — with null, huge and random keys. Fuzz tests of the codec and the validator and
 * the hostile-mix integration test share it.
 */
public final class HostilePayloads {
    /** One hostile record: its kind, key (may be null or huge), value (may be null), reason. */
    public record Payload(String kind, String key, byte[] value, String reason) {
        @Override
        public String toString() {
            return kind
                    + " ("
                    + (value == null ? "null" : value.length + " bytes")
                    + ", key "
                    + (key == null ? "null" : key.length() + " chars")
                    + ")";
        }
    }

    /** The kinds, in the order {@link #next} cycles through them. */
    public static final List<String> KINDS =
            List.of(
                    "random_bytes",
                    "truncated_avro",
                    "overlong_avro",
                    "foreign_fingerprint",
                    "other_record_type",
                    "gigantic_array",
                    "gigantic_negative_block",
                    "gigantic_string",
                    "huge_varint",
                    "deeply_nested",
                    "empty_value",
                    "null_value",
                    "big_junk",
                    "min_event_time",
                    "max_event_time",
                    "non_finite",
                    "unknown_stream",
                    "wrong_dimension");

    private static final AvroCodec<TelemetryRecord> TELEMETRY = AvroCodec.telemetry();

    private final SplittableRandom random;
    private final String stream;
    private final int dimension;
    private final long eventTime;
    private int n;

    /**
     * @param seed the generator's seed (the same seed gives the same payloads)
     * @param stream a configured stream, for payloads that are valid Avro
     * @param dimension its dimension
     * @param eventTime a valid event time for it (the hostile time kinds replace it)
     */
    public HostilePayloads(long seed, String stream, int dimension, long eventTime) {
        this.random = new SplittableRandom(seed);
        this.stream = stream;
        this.dimension = dimension;
        this.eventTime = eventTime;
    }

    /** The next payload, kinds in turn; its key cycles null, huge (64 KiB), random. */
    public Payload next() {
        String kind = KINDS.get(n % KINDS.size());
        String key =
                switch ((n / KINDS.size()) % 3) {
                    case 0 -> null;
                    case 1 -> "k".repeat(64 * 1024);
                    default -> Long.toHexString(random.nextLong());
                };
        n++;
        return of(kind, key);
    }

    /** A payload of the given kind. */
    public Payload of(String kind, String key) {
        byte[] valid = telemetry(stream, eventTime, point(dimension));
        return switch (kind) {
            case "random_bytes" -> {
                byte[] b = bytes(1 + random.nextInt(300));
                b[0] = (byte) (b[0] == (byte) 0xC3 ? 0 : b[0]); // never the Avro marker
                yield new Payload(kind, key, b, "undecodable");
            }
            case "truncated_avro" ->
                    new Payload(
                            kind,
                            key,
                            Arrays.copyOf(valid, random.nextInt(valid.length)),
                            "undecodable");
            case "overlong_avro" -> {
                byte[] b = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(64));
                yield new Payload(kind, key, b, "undecodable");
            }
            case "foreign_fingerprint" -> {
                // a valid telemetry body under the fingerprint of another dpclust schema
                byte[] b = valid.clone();
                ByteBuffer.wrap(b, 2, 8)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(
                                SchemaNormalization.parsingFingerprint64(
                                        CentroidRelease.getClassSchema()));
                yield new Payload(kind, key, b, "undecodable");
            }
            case "other_record_type" ->
                    // a well-formed dead letter (another dpclust type) fed back as input
                    new Payload(
                            kind,
                            key,
                            AvroCodec.rejected()
                                    .encode(
                                            RejectedRecord.newBuilder()
                                                    .setReason("undecodable")
                                                    .setDetail("fed back")
                                                    .setSourceTopic("in")
                                                    .setSourcePartition(0)
                                                    .setSourceOffset(0)
                                                    .setOriginal(ByteBuffer.wrap(valid))
                                                    .build()),
                            "undecodable");
            case "gigantic_array" ->
                    new Payload(kind, key, prefix(Integer.MAX_VALUE - 8, 16), "undecodable");
            case "gigantic_negative_block" ->
                    // a negative count: a block of 2^31 - 9 items said to be 8 bytes long
                    new Payload(
                            kind, key, prefix(-(long) (Integer.MAX_VALUE - 8), 8), "undecodable");
            case "gigantic_string" -> {
                ByteArrayOutputStream o = header();
                varint(o, Integer.MAX_VALUE - 8); // stream_id's length
                o.writeBytes(stream.getBytes(StandardCharsets.UTF_8));
                yield new Payload(kind, key, o.toByteArray(), "undecodable");
            }
            case "huge_varint" -> {
                ByteArrayOutputStream o = header();
                o.writeBytes(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1});
                yield new Payload(kind, key, o.toByteArray(), "undecodable");
            }
            case "deeply_nested" -> {
                int depth = 50_000;
                String s = "[".repeat(depth) + "{\"a\":" + "]".repeat(depth);
                yield new Payload(kind, key, s.getBytes(StandardCharsets.UTF_8), "undecodable");
            }
            case "empty_value" -> new Payload(kind, key, new byte[0], "undecodable");
            case "null_value" -> new Payload(kind, key, null, "undecodable");
            case "big_junk" -> {
                // a large, valid-looking record: the real header, then 256 KiB of junk
                byte[] b = Arrays.copyOf(valid, valid.length + 256 * 1024);
                System.arraycopy(bytes(256 * 1024), 0, b, valid.length, 256 * 1024);
                yield new Payload(kind, key, b, "undecodable");
            }
            case "min_event_time" ->
                    new Payload(
                            kind, key, telemetry(stream, Long.MIN_VALUE, point(dimension)), "late");
            case "max_event_time" ->
                    new Payload(
                            kind,
                            key,
                            telemetry(stream, Long.MAX_VALUE, point(dimension)),
                            "future");
            case "non_finite" -> {
                double[] x = point(dimension);
                x[random.nextInt(dimension)] =
                        random.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
                yield new Payload(kind, key, telemetry(stream, eventTime, x), "non_finite");
            }
            case "unknown_stream" ->
                    new Payload(
                            kind,
                            key,
                            telemetry("no-such-stream", eventTime, point(dimension)),
                            "unknown_stream");
            case "wrong_dimension" ->
                    new Payload(
                            kind,
                            key,
                            telemetry(stream, eventTime, point(dimension + 1 + random.nextInt(5))),
                            "wrong_dimension");
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        };
    }

    /** {@code count} payloads from {@link #next}. */
    public List<Payload> take(int count) {
        List<Payload> l = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            l.add(next());
        }
        return l;
    }

    private double[] point(int d) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = random.nextDouble();
        }
        return x;
    }

    private byte[] bytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    /** A valid telemetry record's header and fields up to its features, then an array count. */
    private byte[] prefix(long count, int trailing) {
        ByteArrayOutputStream o = header();
        for (String s : new String[] {stream, "device"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(o, b.length);
            o.writeBytes(b);
        }
        varint(o, eventTime);
        varint(o, count);
        if (count < 0) {
            varint(o, trailing); // a negative count is followed by the block's size in bytes
        }
        o.writeBytes(bytes(trailing));
        return o.toByteArray();
    }

    /** The single-object header of the current telemetry schema. */
    private static ByteArrayOutputStream header() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(0xC3);
        o.write(0x01);
        byte[] fp = new byte[8];
        ByteBuffer.wrap(fp)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(
                        SchemaNormalization.parsingFingerprint64(TelemetryRecord.getClassSchema()));
        o.writeBytes(fp);
        return o;
    }

    /** Avro's zig-zag varint encoding of a long. */
    private static void varint(ByteArrayOutputStream o, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            o.write((int) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        o.write((int) z);
    }

    /** A valid telemetry record. */
    public static byte[] telemetry(String stream, long eventTime, double[] x) {
        List<Double> f = new ArrayList<>(x.length);
        for (double v : x) {
            f.add(v);
        }
        return TELEMETRY.encode(
                TelemetryRecord.newBuilder()
                        .setStreamId(stream)
                        .setDeviceId("device")
                        .setEventTime(Instant.ofEpochMilli(eventTime))
                        .setFeatures(f)
                        .build());
    }
}
