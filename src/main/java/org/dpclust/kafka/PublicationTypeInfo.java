package org.dpclust.kafka;

import java.io.IOException;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.SketchRelease;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;

/**
 * Flink's type information for {@link Publication} (a sealed interface, which type extraction would
 * otherwise hand to Kryo — refused in this project): a one-byte tag for the variant, then the Avro
 * value in its single-object encoding ({@link AvroCodec}, length-prefixed), or for {@link
 * Publication.WindowMean} its fields. Used between operators only, never in keyed state.
 */
public final class PublicationTypeInfo extends TypeInformation<Publication> {
    private static final long serialVersionUID = 1L;

    /** The one instance to declare on operators and side outputs. */
    public static final PublicationTypeInfo INSTANCE = new PublicationTypeInfo();

    private PublicationTypeInfo() {}

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<Publication> getTypeClass() {
        return Publication.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<Publication> createSerializer(SerializerConfig config) {
        return Serializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "Publication";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicationTypeInfo;
    }

    @Override
    public int hashCode() {
        return PublicationTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof PublicationTypeInfo;
    }

    /** The serializer: tag byte, then the variant's encoding. Stateless. */
    public static final class Serializer extends TypeSerializerSingleton<Publication> {
        private static final long serialVersionUID = 1L;
        static final Serializer INSTANCE = new Serializer();

        private static final byte CENTROIDS = 1;
        private static final byte SKETCH = 2;
        // 3 was the ledger entry: ledger entries are no longer publications (never reuse it)
        private static final byte DEAD_LETTER = 4;
        private static final byte WINDOW_MEAN = 5;
        private static final byte CELLS = 6;
        private static final byte RUNNING = 7;

        private static final AvroCodec<CentroidRelease> CENTROID_CODEC = AvroCodec.centroids();
        private static final AvroCodec<SketchRelease> SKETCH_CODEC = AvroCodec.sketches();
        private static final AvroCodec<RejectedRecord> REJECTED_CODEC = AvroCodec.rejected();
        private static final AvroCodec<CellsRelease> CELLS_CODEC = AvroCodec.cells();

        @Override
        public boolean isImmutableType() {
            return true; // emitted values are never modified
        }

        @Override
        public Publication createInstance() {
            return null;
        }

        @Override
        public Publication copy(Publication from) {
            return from;
        }

        @Override
        public Publication copy(Publication from, Publication reuse) {
            return from;
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public void serialize(Publication p, DataOutputView out) throws IOException {
            if (p instanceof Publication.Centroids c) {
                out.writeByte(CENTROIDS);
                writeBytes(out, CENTROID_CODEC.encode(c.value()));
            } else if (p instanceof Publication.Sketch s) {
                out.writeByte(SKETCH);
                writeBytes(out, SKETCH_CODEC.encode(s.value()));
            } else if (p instanceof Publication.Cells c) {
                out.writeByte(CELLS);
                writeBytes(out, CELLS_CODEC.encode(c.value()));
            } else if (p instanceof Publication.Running r) {
                out.writeByte(RUNNING);
                writeBytes(out, CENTROID_CODEC.encode(r.value()));
            } else if (p instanceof Publication.DeadLetter d) {
                out.writeByte(DEAD_LETTER);
                writeBytes(out, REJECTED_CODEC.encode(d.value()));
            } else {
                Publication.WindowMean m = (Publication.WindowMean) p;
                out.writeByte(WINDOW_MEAN);
                out.writeUTF(m.streamId());
                out.writeLong(m.windowStart());
                out.writeLong(m.count());
                out.writeInt(m.mean().length);
                for (double x : m.mean()) {
                    out.writeDouble(x);
                }
            }
        }

        @Override
        public Publication deserialize(DataInputView in) throws IOException {
            byte tag = in.readByte();
            return switch (tag) {
                case CENTROIDS -> new Publication.Centroids(CENTROID_CODEC.decode(readBytes(in)));
                case SKETCH -> new Publication.Sketch(SKETCH_CODEC.decode(readBytes(in)));
                case CELLS -> new Publication.Cells(CELLS_CODEC.decode(readBytes(in)));
                case RUNNING -> new Publication.Running(CENTROID_CODEC.decode(readBytes(in)));
                case DEAD_LETTER ->
                        new Publication.DeadLetter(REJECTED_CODEC.decode(readBytes(in)));
                case WINDOW_MEAN -> {
                    String stream = in.readUTF();
                    long start = in.readLong();
                    long count = in.readLong();
                    double[] mean = new double[in.readInt()];
                    for (int j = 0; j < mean.length; j++) {
                        mean[j] = in.readDouble();
                    }
                    yield new Publication.WindowMean(stream, start, count, mean);
                }
                default -> throw new IOException("unknown publication tag " + tag);
            };
        }

        @Override
        public Publication deserialize(Publication reuse, DataInputView in) throws IOException {
            return deserialize(in);
        }

        @Override
        public void copy(DataInputView in, DataOutputView out) throws IOException {
            serialize(deserialize(in), out);
        }

        @Override
        public TypeSerializerSnapshot<Publication> snapshotConfiguration() {
            return new Snapshot();
        }

        private static void writeBytes(DataOutputView out, byte[] b) throws IOException {
            out.writeInt(b.length);
            out.write(b);
        }

        private static byte[] readBytes(DataInputView in) throws IOException {
            byte[] b = new byte[in.readInt()];
            in.readFully(b);
            return b;
        }

        private Object readResolve() {
            return INSTANCE;
        }
    }

    /** The serializer's snapshot (it has no configuration). */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Publication> {
        public Snapshot() {
            super(() -> Serializer.INSTANCE);
        }
    }
}
