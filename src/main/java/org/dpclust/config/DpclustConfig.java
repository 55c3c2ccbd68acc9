package org.dpclust.config;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole, validated configuration of a dpclust deployment: Kafka, job settings, the public
 * per-stream specifications and the published topics' value formats ({@code kafka.formats}). The
 * secret is not part of it (it is read from the environment or a file, see {@link SecretSource}).
 */
public record DpclustConfig(
        KafkaSettings kafka, JobSettings job, List<StreamSpec> streams, TopicFormats formats)
        implements Serializable {

    /** A configuration that publishes Avro on every topic. */
    public DpclustConfig(KafkaSettings kafka, JobSettings job, List<StreamSpec> streams) {
        this(kafka, job, streams, TopicFormats.AVRO);
    }

    public Optional<StreamSpec> stream(String id) {
        return streams.stream().filter(s -> s.id().equals(id)).findFirst();
    }

    /** Streams by id, in configuration order. */
    public Map<String, StreamSpec> streamsById() {
        Map<String, StreamSpec> byId = new LinkedHashMap<>();
        streams.forEach(s -> byId.put(s.id(), s));
        return byId;
    }

    public DpclustConfig withKafka(KafkaSettings k) {
        return new DpclustConfig(k, job, streams, formats);
    }

    public DpclustConfig withJob(JobSettings j) {
        return new DpclustConfig(kafka, j, streams, formats);
    }

    public DpclustConfig withFormats(TopicFormats f) {
        return new DpclustConfig(kafka, job, streams, f);
    }
}
