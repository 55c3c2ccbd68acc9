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

    /** Whether a record with these headers is a tick. */
    public static boolean isTick(Headers headers) {
        if (headers == null) {
            return false;
        }
        Header h = headers.lastHeader(HEADER);
        return h != null;
    }

    /** A tick for one partition: no key, an empty value, the marking header. */
    public static ProducerRecord<byte[], byte[]> to(String topic, int partition) {
        Headers headers = new RecordHeaders().add(new RecordHeader(HEADER, VERSION));
        return new ProducerRecord<>(topic, partition, null, null, new byte[0], headers);
    }
}
