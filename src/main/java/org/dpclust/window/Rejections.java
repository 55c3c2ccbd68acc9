package org.dpclust.window;

import java.nio.ByteBuffer;
import java.time.Instant;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.io.Publication;

/** Reasons a record is sent to the dead-letter topic, and the construction of that dead letter. */
public final class Rejections {
    public static final String UNDECODABLE = "undecodable";
    public static final String WRONG_DIMENSION = "wrong_dimension";
    public static final String NON_FINITE = "non_finite";
    public static final String UNKNOWN_STREAM = "unknown_stream";
    public static final String LATE = "late";
    public static final String FUTURE = "future";
    public static final String BEFORE_START = "before_start";
    public static final String AFTER_END = "after_end";
    public static final String NOT_APPEND_TIME = "not_append_time";

    /** Reasons about the record's content (the validator's). */
    public static final String[] ALL = {
        UNDECODABLE, WRONG_DIMENSION, NON_FINITE, UNKNOWN_STREAM, LATE
    };

    /** Reasons about the record's time (see {@link EventTimePolicy}). */
    public static final String[] TIME = {LATE, FUTURE, BEFORE_START, AFTER_END, NOT_APPEND_TIME};

    private Rejections() {}

    /** The dead letter of a record the job cannot count (for the dead-letter topic). */
    public static Publication deadLetter(
            String reason,
            String detail,
            String streamId,
            Long eventTime,
            byte[] original,
            String topic,
            int partition,
            long offset) {
        RejectedRecord r =
                RejectedRecord.newBuilder()
                        .setReason(reason)
                        .setDetail(detail)
                        .setStreamId(streamId)
                        .setEventTime(eventTime == null ? null : Instant.ofEpochMilli(eventTime))
                        .setSourceTopic(topic == null ? "" : topic)
                        .setSourcePartition(partition)
                        .setSourceOffset(offset)
                        .setOriginal(ByteBuffer.wrap(original))
                        .build();
        return new Publication.DeadLetter(r);
    }
}
