package org.dpclust.config;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole, validated configuration of a dpclust deployment: Kafka, job settings, the public
 * per-stream specifications, the published topics' value formats ({@code kafka.formats}) and the
 * input topics with their formats and field mappings ({@code kafka.inputs}). The secret is not part
 * of it (it is read from the environment or a file, see {@link SecretSource}).
 */
public record DpclustConfig(
        KafkaSettings kafka,
        JobSettings job,
        List<StreamSpec> streams,
        TopicFormats formats,
        List<InputTopic> declaredInputs)
        implements Serializable {

    public DpclustConfig {
        declaredInputs = List.copyOf(declaredInputs);
    }

    /** A configuration that reads {@code kafka.topics.input} as dpclust's own Avro records. */
    public DpclustConfig(
            KafkaSettings kafka, JobSettings job, List<StreamSpec> streams, TopicFormats formats) {
        this(kafka, job, streams, formats, List.of());
    }

    /** A configuration that publishes Avro on every topic. */
    public DpclustConfig(KafkaSettings kafka, JobSettings job, List<StreamSpec> streams) {
        this(kafka, job, streams, TopicFormats.AVRO);
    }

    /**
     * The streaming job's input topics: {@code kafka.inputs} when declared, else {@code
     * kafka.topics.input} in Avro single-object encoding.
     */
    public List<InputTopic> inputs() {
        return declaredInputs.isEmpty()
                ? List.of(InputTopic.avro(kafka.inputTopic()))
                : declaredInputs;
    }

    /** The names of {@link #inputs()}. */
    public List<String> inputTopicNames() {
        return inputs().stream().map(InputTopic::topic).toList();
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
        return new DpclustConfig(k, job, streams, formats, declaredInputs);
    }

    public DpclustConfig withJob(JobSettings j) {
        return new DpclustConfig(kafka, j, streams, formats, declaredInputs);
    }

    public DpclustConfig withInputs(List<InputTopic> inputs) {
        return new DpclustConfig(kafka, job, streams, formats, inputs);
    }

    public DpclustConfig withFormats(TopicFormats f) {
        return new DpclustConfig(kafka, job, streams, f, declaredInputs);
    }
}
