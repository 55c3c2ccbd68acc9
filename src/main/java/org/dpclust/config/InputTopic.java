package org.dpclust.config;

import java.io.Serializable;

/**
 * One input topic of the streaming job ({@code kafka.inputs[]}): its name, how its values are
 * encoded and, for JSON, where the fields are. Without {@code kafka.inputs} the job reads {@code
 * kafka.topics.input} as {@link InputFormat#AVRO_SINGLE_OBJECT}.
 *
 * @param mapping the field mapping (null for Avro single-object)
 * @param registryUrl the schema registry's base URL (avro-registry only; public): Confluent's REST
 *     API, e.g. Apicurio Registry's {@code http://host:8080/apis/ccompat/v7}; its credentials, if
 *     any, are the client property {@code schema.registry.basic.auth.user.info} ({@code
 *     kafka.properties} or {@code --kafka-properties}, where secret references work)
 */
public record InputTopic(String topic, InputFormat format, FieldMapping mapping, String registryUrl)
        implements Serializable {

    /** dpclust's own records on {@code topic}. */
    public static InputTopic avro(String topic) {
        return new InputTopic(topic, InputFormat.AVRO_SINGLE_OBJECT, null, null);
    }

    /** JSON records on {@code topic}, read through {@code mapping}. */
    public static InputTopic json(String topic, FieldMapping mapping) {
        return new InputTopic(topic, InputFormat.JSON, mapping, null);
    }
}
