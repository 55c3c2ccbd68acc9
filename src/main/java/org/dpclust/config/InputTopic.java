package org.dpclust.config;

import java.io.Serializable;

/**
 * One input topic of the streaming job ({@code kafka.inputs[]}): its name, how its values are
 * encoded and, for JSON, where the fields are. Without {@code kafka.inputs} the job reads {@code
 * kafka.topics.input} as {@link InputFormat#AVRO_SINGLE_OBJECT}.
 *
 * @param mapping the field mapping (JSON only; null for Avro single-object)
 */
public record InputTopic(String topic, InputFormat format, FieldMapping mapping)
        implements Serializable {

    /** dpclust's own records on {@code topic}. */
    public static InputTopic avro(String topic) {
        return new InputTopic(topic, InputFormat.AVRO_SINGLE_OBJECT, null);
    }
}
