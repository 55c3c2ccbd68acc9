package org.dpclust.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.DateTimeException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecordBase;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.SketchRelease;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.WireFormat;

/**
 * Avro single-object encoding (2-byte marker, 8-byte schema fingerprint, binary body) for one
 * generated record type. Decoding resolves every schema version the jar ships ({@link
 * SchemaHistory}), so a consumer of a newer dpclust reads records written by an older one. Encoding
 * is deterministic: the same record value always gives the same bytes (maps are written in
 * iteration order; dpclust builds them sorted).
 */
public final class AvroCodec<T extends SpecificRecordBase> implements Serializable {
    private final Class<T> type;
    private transient BinaryMessageEncoder<T> encoder;
    private transient Map<Long, Reader<T>> readers;

    /** The single-object encoding's marker and header length (marker + 8-byte fingerprint). */
    private static final byte[] MARKER = {(byte) 0xC3, 0x01};

    private static final int HEADER_BYTES = 10;

    private AvroCodec(Class<T> type) {
        this.type = type;
    }

    public static AvroCodec<TelemetryRecord> telemetry() {
        return new AvroCodec<>(TelemetryRecord.class);
    }

    public static AvroCodec<CentroidRelease> centroids() {
        return new AvroCodec<>(CentroidRelease.class);
    }

    public static AvroCodec<SketchRelease> sketches() {
        return new AvroCodec<>(SketchRelease.class);
    }

    public static AvroCodec<CellsRelease> cells() {
        return new AvroCodec<>(CellsRelease.class);
    }

    public static AvroCodec<BudgetStatus> budget() {
        return new AvroCodec<>(BudgetStatus.class);
    }

    public static AvroCodec<RejectedRecord> rejected() {
        return new AvroCodec<>(RejectedRecord.class);
    }

    public byte[] encode(T value) {
        try {
            ByteBuffer b = encoder().encode(value);
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The record value of a published topic in {@code format} (both deterministic). */
    public byte[] encode(T value, WireFormat format) {
        return format == WireFormat.JSON ? AvroJson.toJson(value) : encode(value);
    }

    /**
     * Decodes the record value of a published topic in either {@link WireFormat}: a value that
     * starts with {@code '{'} is the JSON form ({@link AvroJson#fromJson}), anything else Avro
     * single-object encoding (which starts with {@code C3 01}). A topic may hold both (its format
     * was changed); readers of published topics use this, the input and the ledger use {@link
     * #decode}.
     *
     * @throws IOException with a readable reason when the bytes are neither
     */
    public T decodePublished(byte[] bytes) throws IOException {
        if (bytes != null && bytes.length > 0 && bytes[0] == '{') {
            return AvroJson.fromJson(bytes, type);
        }
        return decode(bytes);
    }

    /**
     * Decodes one message, hardened against hostile bytes: the header and fingerprint are checked
     * first; then every length and count in the body is checked against the bytes actually present
     * by a skipping pass over the writer schema ({@link GenericDatumReader#skip}), which allocates
     * nothing, so a body that claims a gigantic array or string is rejected without materialising
     * it (Avro's own reader sizes a collection or a string by its claimed length before reading it:
     * 2<sup>31</sup> claimed items are an {@link OutOfMemoryError}); a body followed by extra bytes
     * is rejected too. Only then is the record read. Memory is O(message size).
     *
     * @throws IOException with a readable reason when the bytes are not a single-object encoded
     *     record of a known version (bad header, unknown fingerprint, truncated body, trailing
     *     bytes)
     */
    public T decode(byte[] bytes) throws IOException {
        if (bytes == null) {
            throw new IOException("null value");
        }
        if (bytes.length < HEADER_BYTES || bytes[0] != MARKER[0] || bytes[1] != MARKER[1]) {
            throw new IOException(
                    "not Avro single-object encoding: "
                            + (bytes.length < HEADER_BYTES
                                    ? bytes.length + " bytes, shorter than the 10-byte header"
                                    : String.format(
                                            "header bytes 0x%02x 0x%02x", bytes[0], bytes[1])));
        }
        long fingerprint = ByteBuffer.wrap(bytes, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        Reader<T> reader = readers().get(fingerprint);
        if (reader == null) {
            throw new IOException(
                    String.format(
                            "unknown schema fingerprint: %016x is no version of %s",
                            fingerprint, type.getSimpleName()));
        }
        int bodyLength = bytes.length - HEADER_BYTES;
        try {
            BinaryDecoder check =
                    DecoderFactory.get().binaryDecoder(bytes, HEADER_BYTES, bodyLength, null);
            AvroBoundsCheck.walk(reader.writer(), check); // every item read: no claimed counts
            if (!check.isEnd()) {
                throw new IOException(
                        "malformed Avro body: bytes left over after the record ("
                                + bytes.length
                                + " bytes in all)");
            }
            return reader.datum()
                    .read(
                            null,
                            DecoderFactory.get()
                                    .binaryDecoder(bytes, HEADER_BYTES, bodyLength, null));
        } catch (EOFException e) {
            throw new IOException("malformed Avro body: truncated (" + bytes.length + " bytes)", e);
        } catch (AvroRuntimeException
                | IndexOutOfBoundsException
                | IllegalArgumentException
                | ArithmeticException
                | DateTimeException e) {
            throw new IOException("malformed Avro body: " + e.getMessage(), e);
        }
    }

    /** A reader for one writer schema version, resolving it to the current schema. */
    private record Reader<T>(Schema writer, DatumReader<T> datum) {}

    private Map<Long, Reader<T>> readers() {
        if (readers == null) {
            Map<Long, Reader<T>> m = new HashMap<>();
            SpecificData data = SpecificData.getForClass(type);
            for (Schema writer : SchemaHistory.versionsOf(schema().getFullName())) {
                m.put(
                        SchemaNormalization.parsingFingerprint64(writer),
                        new Reader<>(writer, new SpecificDatumReader<>(writer, schema(), data)));
            }
            readers = m;
        }
        return readers;
    }

    private BinaryMessageEncoder<T> encoder() {
        if (encoder == null) {
            encoder = new BinaryMessageEncoder<>(SpecificData.getForClass(type), schema());
        }
        return encoder;
    }

    private Schema schema() {
        return SpecificData.getForClass(type).getSchema(type);
    }
}
