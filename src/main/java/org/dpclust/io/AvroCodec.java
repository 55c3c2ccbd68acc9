package org.dpclust.io;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
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
    private transient BinaryMessageDecoder<T> decoder;

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
     * Decodes one message.
     *
     * @throws IOException with a readable reason when the bytes are not a single-object encoded
     *     record of a known version (bad header, unknown fingerprint, truncated body)
     */
    public T decode(byte[] bytes) throws IOException {
        if (bytes == null) {
            throw new IOException("null value");
        }
        try {
            return decoder().decode(bytes);
        } catch (BadHeaderException e) {
            throw new IOException("not Avro single-object encoding: " + e.getMessage(), e);
        } catch (MissingSchemaException e) {
            throw new IOException("unknown schema fingerprint: " + e.getMessage(), e);
        } catch (AvroRuntimeException | IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IOException("malformed Avro body: " + e.getMessage(), e);
        }
    }

    private BinaryMessageEncoder<T> encoder() {
        if (encoder == null) {
            encoder = new BinaryMessageEncoder<>(SpecificData.getForClass(type), schema());
        }
        return encoder;
    }

    private BinaryMessageDecoder<T> decoder() {
        if (decoder == null) {
            SchemaStore.Cache store = new SchemaStore.Cache();
            SchemaHistory.versionsOf(schema().getFullName()).forEach(store::addSchema);
            decoder = new BinaryMessageDecoder<>(SpecificData.getForClass(type), schema(), store);
        }
        return decoder;
    }

    private Schema schema() {
        return SpecificData.getForClass(type).getSchema(type);
    }
}
