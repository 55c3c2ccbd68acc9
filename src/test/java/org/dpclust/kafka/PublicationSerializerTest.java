package org.dpclust.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.SketchRelease;
import org.dpclust.config.TopicFormats;
import org.dpclust.config.WireFormat;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;
import org.junit.jupiter.api.Test;

/** Each publication type goes to its topic with its key and encoding, and survives Flink. */
public class PublicationSerializerTest {
    private static final PublicationSerializer SERIALIZER =
            new PublicationSerializer("c-topic", "s-topic", "x-topic", "d-topic");

    public static CentroidRelease centroids() {
        return CentroidRelease.newBuilder()
                .setSchemaVersion(1)
                .setStreamId("s1")
                .setWindowStart(Instant.ofEpochMilli(0))
                .setWindowEnd(Instant.ofEpochMilli(10))
                .setWindowsCovered(1)
                .setAlgorithm("stats")
                .setMode("stream")
                .setK(1)
                .setCentroids(List.of(List.of(0.5, 0.25)))
                .setWeights(List.of(3.0))
                .setEpsilon(1)
                .setDelta(0)
                .setSpent(1)
                .setCap(2)
                .setBudgetPeriodStart(Instant.ofEpochMilli(0))
                .setBudgetPeriodEnd(Instant.ofEpochMilli(100))
                .setNeighbouring("add-remove")
                .setPrivacyUnit("record")
                .setContributionBound(1)
                .setGuarantee("dp")
                .setDomainLower(List.of(0.0, 0.0))
                .setDomainUpper(List.of(1.0, 1.0))
                .setMechanismParams(new TreeMap<>())
                .build();
    }

    static CellsRelease cells() {
        return CellsRelease.newBuilder()
                .setStreamId("s1")
                .setWindowStart(Instant.ofEpochMilli(0))
                .setWindowEnd(Instant.ofEpochMilli(10))
                .setDimension(1)
                .setCellPoints(List.of(List.of(0.5)))
                .setNoisyCounts(List.of(7L))
                .setNoisySums(List.of(0.75))
                .setNoisyMeans(List.of(List.of(0.6)))
                .setCountNoiseSd(2)
                .setSumNoiseSd(1)
                .setEpsilon(0.5)
                .setPrivacyUnit("device")
                .setDomainLower(List.of(0.0))
                .setDomainUpper(List.of(1.0))
                .build();
    }

    static SketchRelease sketch() {
        return SketchRelease.newBuilder()
                .setSchemaVersion(1)
                .setStreamId("s1")
                .setWindowStart(Instant.ofEpochMilli(0))
                .setWindowEnd(Instant.ofEpochMilli(10))
                .setWindowsCovered(1)
                .setM(1)
                .setR(1)
                .setDimension(2)
                .setFrequencySeed(5)
                .setFrequencyLaw("gaussian")
                .setFrequencySigma(0.5)
                .setSketch(List.of(0.1, 0.2))
                .setNoisyCount(3)
                .setEpsilon(1)
                .setGuarantee("dp")
                .setNeighbouring("add-remove")
                .setPrivacyUnit("record")
                .setDomainLower(List.of(0.0, 0.0))
                .setDomainUpper(List.of(1.0, 1.0))
                .setMechanismParams(new TreeMap<>())
                .build();
    }

    public static RejectedRecord rejected(String streamId) {
        return RejectedRecord.newBuilder()
                .setReason("late")
                .setDetail("window closed")
                .setStreamId(streamId)
                .setEventTime(null)
                .setSourceTopic("in")
                .setSourcePartition(0)
                .setSourceOffset(7)
                .setOriginal(ByteBuffer.wrap(new byte[] {1, 2}))
                .build();
    }

    private static String key(ProducerRecord<byte[], byte[]> r) {
        return r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    }

    @Test
    void eachTypeGoesToItsTopicWithItsKeyAndAvroEncoding() throws Exception {
        var c = SERIALIZER.record(new Publication.Centroids(centroids()));
        assertEquals("c-topic", c.topic());
        assertEquals("s1", key(c));
        assertEquals(centroids(), AvroCodec.centroids().decode(c.value()));

        var s = SERIALIZER.record(new Publication.Sketch(sketch()));
        assertEquals("s-topic", s.topic());
        assertEquals("s1", key(s));
        assertEquals(sketch(), AvroCodec.sketches().decode(s.value()));

        var x = SERIALIZER.record(new Publication.Cells(cells()));
        assertEquals("x-topic", x.topic());
        assertEquals("s1", key(x));
        assertEquals(cells(), AvroCodec.cells().decode(x.value()));

        var d = SERIALIZER.record(new Publication.DeadLetter(rejected("s1")));
        assertEquals("d-topic", d.topic());
        assertEquals("s1", key(d));
        assertEquals(rejected("s1"), AvroCodec.rejected().decode(d.value()));
        assertNull(
                SERIALIZER.record(new Publication.DeadLetter(rejected(null))).key(),
                "no stream, no key");

        var m =
                SERIALIZER.record(
                        new Publication.WindowMean("s1", 10, 4, new double[] {0.5, 0.25}));
        assertEquals("c-topic", m.topic());
        ByteBuffer b = ByteBuffer.wrap(m.value());
        assertEquals(10, b.getLong());
        assertEquals(4, b.getLong());
        assertEquals(0.5, b.getDouble());
        assertEquals(0.25, b.getDouble());
        assertEquals(0, b.remaining());
    }

    @Test
    void theJsonFormatWritesEachTopicsJsonFormDeterministicallyAndReadsBack() throws Exception {
        PublicationSerializer json =
                new PublicationSerializer(
                        "c-topic", "s-topic", "d-topic", TopicFormats.all(WireFormat.JSON));
        PublicationSerializer mixed =
                new PublicationSerializer(
                        "c-topic",
                        "s-topic",
                        "d-topic",
                        new TopicFormats(WireFormat.JSON, WireFormat.AVRO, WireFormat.AVRO));

        var x = json.record(new Publication.Cells(cells()));
        assertEquals(org.dpclust.config.KafkaSettings.DEFAULT_CELLS, x.topic());
        assertEquals('{', x.value()[0]);
        assertEquals(cells(), AvroCodec.cells().decodePublished(x.value()));
        assertEquals(
                (byte) 0xC3,
                mixed.record(new Publication.Cells(cells())).value()[0],
                "cells stay avro unless kafka.formats.cells says json");

        var run = json.record(new Publication.Running(centroids()));
        assertEquals(org.dpclust.config.KafkaSettings.DEFAULT_RUNNING, run.topic());
        assertEquals("s1", key(run));
        assertEquals('{', run.value()[0]);
        assertEquals(centroids(), AvroCodec.centroids().decodePublished(run.value()));
        assertEquals(
                (byte) 0xC3,
                mixed.record(new Publication.Running(centroids())).value()[0],
                "running releases stay avro unless kafka.formats.running says json");

        var c = json.record(new Publication.Centroids(centroids()));
        assertEquals("c-topic", c.topic());
        assertEquals("s1", key(c));
        assertEquals('{', c.value()[0]);
        assertArrayEquals(
                c.value(), json.record(new Publication.Centroids(centroids())).value(), "stable");
        assertEquals(centroids(), AvroCodec.centroids().decodePublished(c.value()));
        assertArrayEquals(c.value(), mixed.record(new Publication.Centroids(centroids())).value());

        var s = json.record(new Publication.Sketch(sketch()));
        assertEquals("s-topic", s.topic());
        assertEquals(sketch(), AvroCodec.sketches().decodePublished(s.value()));
        assertEquals(
                (byte) 0xC3,
                mixed.record(new Publication.Sketch(sketch())).value()[0],
                "sketches stay Avro in the mixed configuration");

        var d = json.record(new Publication.DeadLetter(rejected(null)));
        assertNull(d.key());
        assertEquals(rejected(null), AvroCodec.rejected().decodePublished(d.value()));
    }

    @Test
    void everyTypeRoundTripsThroughItsFlinkSerializerToTheSameKafkaRecord() throws Exception {
        TypeSerializer<Publication> flink =
                PublicationTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl());
        for (Publication p :
                List.of(
                        new Publication.Centroids(centroids()),
                        new Publication.Sketch(sketch()),
                        new Publication.Cells(cells()),
                        new Publication.Running(centroids()),
                        new Publication.DeadLetter(rejected(null)),
                        new Publication.WindowMean("s1", 10, 4, new double[] {0.5, 0.25}))) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            flink.serialize(p, out);
            Publication back = flink.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertEquals(p.getClass(), back.getClass());
            var expected = SERIALIZER.record(p);
            var actual = SERIALIZER.record(back);
            assertEquals(expected.topic(), actual.topic());
            assertArrayEquals(expected.key(), actual.key());
            assertArrayEquals(expected.value(), actual.value(), p.getClass().getSimpleName());
        }
    }
}
