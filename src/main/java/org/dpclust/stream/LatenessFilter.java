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
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.InputReport;
import org.dpclust.window.Rejections;
import org.dpclust.window.ValidRecord;

/**
 * Per-record inclusion ({@link EventTimePolicy#exclusion}): a valid record whose event time is too
 * far before ({@code late}) or after ({@code future}) its own log append time, whose Kafka
 * timestamp is not an append time ({@code not_append_time}), or whose window is not on the public
 * schedule ({@code before_start}, {@code after_end}) goes to the dead-letter topic with that
 * reason. The decision is a function of the record alone. Runs right after validation, before
 * keyBy.
 *
 * <p>A record that counts arrives before the append-time watermark closes its window unless the
 * broker's clock stepped back by more than {@code max_out_of_orderness}, its partition was found
 * after the others had moved on, or (without the release clock) its partition resumed from idle
 * behind the others: such a record is dead-lettered as {@code late} too, here or, after the
 * shuffle, by {@link WindowPreAggregator}. Strips the original bytes from records that pass.
 */
public class LatenessFilter extends ProcessFunction<ValidRecord, ValidRecord> {
    public static final OutputTag<Publication> LATE =
            new OutputTag<>("late", PublicationTypeInfo.INSTANCE);

    /** Job accumulator: records dead-lettered for their time (every reason above). */
    public static final String ACC_LATE = "records_rejected_late";

    private final List<StreamSpec> streams;
    private final EventTimePolicy policy;
    private transient Map<String, StreamSpec> byId;
    private transient Map<String, Counter> rejected;
    private transient LongCounter lateTotal;
    private transient InputReport report;

    public LatenessFilter(List<StreamSpec> streams, EventTimePolicy policy) {
        this.streams = streams;
        this.policy = policy;
    }

    @Override
    public void open(OpenContext ctx) {
        byId = new HashMap<>();
        streams.forEach(s -> byId.put(s.id(), s));
        lateTotal = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_LATE, lateTotal);
        var g = getRuntimeContext().getMetricGroup().addGroup("dpclust").addGroup("rejected");
        report =
                InputReport.of(
                        "inclusion["
                                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()
                                + "] (passed = counted)");
        rejected = new HashMap<>();
        for (String reason : Rejections.TIME) {
            rejected.put(reason, g.counter(reason));
        }
    }

    @Override
    public void processElement(ValidRecord r, Context ctx, Collector<ValidRecord> out) {
        StreamSpec s = byId.get(r.streamId);
        String reason = policy.exclusion(s, r.eventTime, r.appendTime, r.logAppendTime);
        String detail = reason == null ? null : policy.detail(reason, s, r.eventTime, r.appendTime);
        long windowStart = s.windowStart(r.eventTime);
        long watermark = ctx.timerService().currentWatermark();
        if (reason == null && policy.closeTime(s, windowStart) <= watermark) {
            reason = Rejections.LATE;
            detail =
                    "window ["
                            + windowStart
                            + ", "
                            + (windowStart + s.windowMillis())
                            + ") closed at append-time watermark "
                            + watermark
                            + " (a broker clock step beyond max_out_of_orderness, a partition"
                            + " found after the others moved on, or, without the release clock, a"
                            + " partition resumed from idle)";
        }
        if (reason != null) {
            rejected.get(reason).inc();
            lateTotal.add(1);
            report.rejected(r.streamId, reason);
            RecordValidator.log(report);
            ctx.output(
                    LATE,
                    Rejections.deadLetter(
                            reason,
                            detail,
                            r.streamId,
                            r.eventTime,
                            r.original,
                            r.topic,
                            r.partition,
                            r.offset));
            return;
        }
        report.passed(r.streamId);
        RecordValidator.log(report);
        r.original = null;
        r.topic = null;
        out.collect(r);
    }
}
