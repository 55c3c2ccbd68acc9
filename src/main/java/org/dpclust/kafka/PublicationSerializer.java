package org.dpclust.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.SketchRelease;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaSettings;
import org.dpclust.config.TopicFormats;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.AvroJson;
import org.dpclust.io.Publication;

/**
 * The one place that decides where and how each {@link Publication} is written: topic, key and
 * value encoding (per topic, {@code kafka.formats}: Avro single-object encoding, {@link AvroCodec},
 * or its JSON form, {@link AvroJson}; docs/wire-format.md) for the job's single exactly-once Kafka
 * sink. No headers. Keys: the stream id for releases (window, running), cells, sketches and dead
 * letters (a stream's records stay in order on one partition; a dead letter without a known stream
 * has no key). Nothing goes to the budget topic from here: its only writer is the stream's fenced
 * ledger writer ({@code ledger.KafkaLedgerClient}). Deterministic: the same value always gives the
 * same record, so a replayed window is byte-identical.
 */
public final class PublicationSerializer implements KafkaRecordSerializationSchema<Publication> {
    private static final AvroCodec<CentroidRelease> CENTROIDS = AvroCodec.centroids();
    private static final AvroCodec<SketchRelease> SKETCHES = AvroCodec.sketches();
    private static final AvroCodec<RejectedRecord> REJECTED = AvroCodec.rejected();
    private static final AvroCodec<CellsRelease> CELLS = AvroCodec.cells();

    private final String centroidsTopic;
    private final String sketchesTopic;
    private final String cellsTopic;
    private final String runningTopic;
    private final String dlqTopic;
    private final TopicFormats formats;

    /** Avro on every topic. */
    public PublicationSerializer(String centroidsTopic, String sketchesTopic, String dlqTopic) {
        this(centroidsTopic, sketchesTopic, KafkaSettings.DEFAULT_CELLS, dlqTopic);
    }

    /** Avro on every topic, with the cells topic (the default running topic). */
    public PublicationSerializer(
            String centroidsTopic, String sketchesTopic, String cellsTopic, String dlqTopic) {
        this(
                centroidsTopic,
                sketchesTopic,
                cellsTopic,
                KafkaSettings.DEFAULT_RUNNING,
                dlqTopic,
                TopicFormats.AVRO);
    }

    /** The default cells and running topics. */
    public PublicationSerializer(
            String centroidsTopic, String sketchesTopic, String dlqTopic, TopicFormats formats) {
        this(
                centroidsTopic,
                sketchesTopic,
                KafkaSettings.DEFAULT_CELLS,
                KafkaSettings.DEFAULT_RUNNING,
                dlqTopic,
                formats);
    }

    public PublicationSerializer(
            String centroidsTopic,
            String sketchesTopic,
            String cellsTopic,
            String runningTopic,
            String dlqTopic,
            TopicFormats formats) {
        this.centroidsTopic = centroidsTopic;
        this.sketchesTopic = sketchesTopic;
        this.cellsTopic = cellsTopic;
        this.runningTopic = runningTopic;
        this.dlqTopic = dlqTopic;
        this.formats = formats;
    }

    /** The topics and formats of the configuration. */
    public static PublicationSerializer of(DpclustConfig c) {
        KafkaSettings k = c.kafka();
        return new PublicationSerializer(
                k.centroidsTopic(),
                k.sketchesTopic(),
                k.cellsTopic(),
                k.runningTopic(),
                k.dlqTopic(),
                c.formats());
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            Publication p, KafkaSinkContext context, Long timestamp) {
        return record(p);
    }

    /** The Kafka record of one publication (no timestamp: the broker assigns it). */
    public ProducerRecord<byte[], byte[]> record(Publication p) {
        if (p instanceof Publication.Centroids c) {
            return record(
                    centroidsTopic,
                    utf8(c.value().getStreamId()),
                    CENTROIDS.encode(c.value(), formats.centroids()));
        }
        if (p instanceof Publication.Sketch s) {
            return record(
                    sketchesTopic,
                    utf8(s.value().getStreamId()),
                    SKETCHES.encode(s.value(), formats.sketches()));
        }
        if (p instanceof Publication.Cells c) {
            return record(
                    cellsTopic,
                    utf8(c.value().getStreamId()),
                    CELLS.encode(c.value(), formats.cells()));
        }
        if (p instanceof Publication.Running r) {
            return record(
                    runningTopic,
                    utf8(r.value().getStreamId()),
                    CENTROIDS.encode(r.value(), formats.running()));
        }
        if (p instanceof Publication.DeadLetter d) {
            String stream = d.value().getStreamId();
            return record(
                    dlqTopic,
                    stream == null ? null : utf8(stream),
                    REJECTED.encode(d.value(), formats.dlq()));
        }
        Publication.WindowMean m = (Publication.WindowMean) p;
        return record(centroidsTopic, utf8(m.streamId()), windowMean(m));
    }

    /** Window start, count, then the d mean coordinates (big-endian). */
    private static byte[] windowMean(Publication.WindowMean m) {
        ByteBuffer b = ByteBuffer.allocate(16 + 8 * m.mean().length);
        b.putLong(m.windowStart()).putLong(m.count());
        for (double x : m.mean()) {
            b.putDouble(x);
        }
        return b.array();
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, byte[] key, byte[] value) {
        return new ProducerRecord<>(topic, null, null, key, value);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
