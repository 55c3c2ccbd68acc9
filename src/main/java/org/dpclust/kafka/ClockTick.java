package org.dpclust.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A tick of the release clock (docs/event-time.md#the-release-clock): an empty record the job
 * appends to an input partition, recognised by its header {@value #HEADER} and never decoded,
 * counted or dead-lettered. Its only content is where it sits in the partition's log and its log
 * append time: every record after it on that partition was appended no earlier (up to the broker
 * clock steps that {@code job.max_out_of_orderness} covers). It carries nothing private.
 */
public final class ClockTick {
    /** The header that marks a tick; its value names the clock's version. */
    public static final String HEADER = "dpclust-tick";

    private static final byte[] VERSION = "1".getBytes(StandardCharsets.UTF_8);

    private ClockTick() {}

    /** Whether these headers carry the tick's marking header. */
    public static boolean isTick(Headers headers) {
        if (headers == null) {
            return false;
        }
        Header h = headers.lastHeader(HEADER);
        return h != null;
    }

    /**
     * Whether a record is a tick: the marking header and an empty (or null) value, as {@link #to}
     * writes it. A record with the header and a payload is not a tick — it is decoded as telemetry,
     * counted if valid and dead-lettered with its reason otherwise — so a producer that copies
     * headers (or forges this one) cannot make data disappear uncounted.
     */
    public static boolean isTick(Headers headers, byte[] value) {
        return (value == null || value.length == 0) && isTick(headers);
    }

    /** A tick for one partition: no key, an empty value, the marking header. */
    public static ProducerRecord<byte[], byte[]> to(String topic, int partition) {
        Headers headers = new RecordHeaders().add(new RecordHeader(HEADER, VERSION));
        return new ProducerRecord<>(topic, partition, null, null, new byte[0], headers);
    }
}
