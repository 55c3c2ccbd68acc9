package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.io.PublicationTypeInfo;

/**
 * Allowed lateness 0: a record whose window has already been closed by the watermark goes to the
 * dead-letter topic with reason {@code late}. Runs right after validation (watermarks come from the
 * source, per partition), before keyBy. A record that passes here is late downstream only when its
 * source partition has just resumed from idle (the combined watermark after the shuffle may be
 * ahead of this subtask's): {@link WindowPreAggregator} dead-letters those. Strips the original
 * bytes from records that pass.
 */
public class LatenessFilter extends ProcessFunction<ValidRecord, ValidRecord> {
    public static final OutputTag<Publication> LATE =
            new OutputTag<>("late", PublicationTypeInfo.INSTANCE);
    public static final String ACC_LATE = "records_rejected_late";

    private final List<StreamSpec> streams;
    private transient Map<String, StreamSpec> byId;
    private transient Counter late;
    private transient LongCounter lateTotal;

    public LatenessFilter(List<StreamSpec> streams) {
        this.streams = streams;
    }

    @Override
    public void open(OpenContext ctx) {
        byId = new HashMap<>();
        streams.forEach(s -> byId.put(s.id(), s));
        lateTotal = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_LATE, lateTotal);
        late =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup("dpclust")
                        .addGroup("rejected")
                        .counter(Rejections.LATE);
    }

    @Override
    public void processElement(ValidRecord r, Context ctx, Collector<ValidRecord> out) {
        StreamSpec s = byId.get(r.streamId);
        long windowEnd = s.windowStart(r.eventTime) + s.windowMillis();
        long watermark = ctx.timerService().currentWatermark();
        if (windowEnd - 1 <= watermark) {
            late.inc();
            lateTotal.add(1);
            ctx.output(
                    LATE,
                    Rejections.deadLetter(
                            Rejections.LATE,
                            "window ["
                                    + (windowEnd - s.windowMillis())
                                    + ", "
                                    + windowEnd
                                    + ") closed at watermark "
                                    + watermark,
                            r.streamId,
                            r.eventTime,
                            r.original,
                            r.topic,
                            r.partition,
                            r.offset));
            return;
        }
        r.original = null;
        r.topic = null;
        out.collect(r);
    }
}
