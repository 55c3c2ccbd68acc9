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
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.window.InputReport;
import org.dpclust.window.Rejections;
import org.dpclust.window.ValidRecord;

/**
 * Validates raw input, decoded once upstream (by the Kafka deserializer, {@link RawRecord#decode};
 * a record that arrives undecoded is decoded here): undecodable bytes, unknown streams, a wrong
 * dimension and NaN/Inf values go to the dead-letter side output with their reason and original
 * bytes; out-of-bounds values are clamped into the declared bounds (and counted). Operator-side:
 * metrics and dead letters are trusted outputs, not DP releases.
 */
public class RecordValidator extends ProcessFunction<RawRecord, ValidRecord> {
    public static final OutputTag<Publication> DEAD_LETTERS =
            new OutputTag<>("dead-letters", PublicationTypeInfo.INSTANCE);

    /** Job accumulators (operator-side counts, read from the job result by tests and the demo). */
    public static final String ACC_RECORDS_IN = "records_in";

    public static final String ACC_REJECTED = "records_rejected_invalid";

    private final List<StreamSpec> streams;
    private transient Map<String, DomainBounds> bounds;
    private transient AvroCodec<TelemetryRecord> codec;
    private transient Counter recordsIn;
    private transient Counter clamped;
    private transient Counter ticksIn;
    private transient Map<String, Counter> rejected;
    private transient LongCounter recordsInTotal;
    private transient LongCounter rejectedTotal;
    private transient InputReport report;
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(RecordValidator.class);

    public RecordValidator(List<StreamSpec> streams) {
        this.streams = streams;
    }

    @Override
    public void open(OpenContext ctx) {
        bounds = bounds(streams);
        codec = AvroCodec.telemetry();
        var g = getRuntimeContext().getMetricGroup().addGroup("dpclust");
        recordsIn = g.counter("records_in");
        clamped = g.counter("records_clamped");
        ticksIn = g.counter("clock_ticks_in");
        recordsInTotal = new LongCounter();
        rejectedTotal = new LongCounter();
        getRuntimeContext().addAccumulator(ACC_RECORDS_IN, recordsInTotal);
        getRuntimeContext().addAccumulator(ACC_REJECTED, rejectedTotal);
        report =
                InputReport.of(
                        "validate-clamp["
                                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()
                                + "]");
        rejected = new HashMap<>();
        for (String reason : Rejections.ALL) {
            rejected.put(reason, g.addGroup("rejected").counter(reason));
        }
    }

    /** Why a record is invalid: a dead-letter reason and its detail. */
    public record Problem(String reason, String detail) {}

    /**
     * Why the (decoded) record is invalid, or null if it is valid: a function of the record and the
     * public bounds alone. Shared with the source's watermark generator ({@link
     * AppendTimeWatermarks}), which lets only records that count move time.
     */
    public static Problem check(RawRecord raw, Map<String, DomainBounds> bounds) {
        if (raw.undecodable != null) {
            return new Problem(Rejections.UNDECODABLE, raw.undecodable);
        }
        DomainBounds b = bounds.get(raw.streamId);
        if (b == null) {
            return new Problem(
                    Rejections.UNKNOWN_STREAM, "stream '" + raw.streamId + "' is not configured");
        }
        if (raw.features.length != b.dimension()) {
            return new Problem(
                    Rejections.WRONG_DIMENSION,
                    "expected " + b.dimension() + " features, got " + raw.features.length);
        }
        for (int j = 0; j < raw.features.length; j++) {
            if (!Double.isFinite(raw.features[j])) {
                return new Problem(
                        Rejections.NON_FINITE, "feature " + j + " is " + raw.features[j]);
            }
        }
        return null;
    }

    /** The public bounds of every configured stream, by id. */
    public static Map<String, DomainBounds> bounds(List<StreamSpec> streams) {
        Map<String, DomainBounds> m = new HashMap<>();
        streams.forEach(s -> m.put(s.id(), new DomainBounds(s.lower(), s.upper())));
        return m;
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<ValidRecord> out) {
        if (raw.tick) {
            ticksIn.inc(); // the release clock's tick has moved its partition's watermark
            return; // not input: never counted as a record nor dead-lettered
        }
        recordsIn.inc();
        recordsInTotal.add(1);
        if (!raw.decoded) { // the Kafka source's deserializer has decoded it already; other sources
            // may not
            raw.decode(codec);
        }
        Problem problem = check(raw, bounds);
        if (problem != null) {
            boolean decoded = raw.undecodable == null;
            reject(
                    ctx,
                    raw,
                    problem.reason(),
                    problem.detail(),
                    decoded ? raw.streamId : null,
                    decoded ? raw.eventTime : null);
            return;
        }
        report.passed(raw.streamId);
        log(report);
        DomainBounds b = bounds.get(raw.streamId);
        double[] x = raw.features.clone();
        if (b.clamp(x, x) > 0) {
            clamped.inc();
        }
        ValidRecord v = new ValidRecord();
        v.streamId = raw.streamId;
        v.deviceId = raw.deviceId;
        v.eventTime = raw.eventTime;
        v.appendTime = raw.appendTime;
        v.logAppendTime = raw.logAppendTime;
        v.features = x;
        v.original = raw.value;
        v.topic = raw.topic;
        v.partition = raw.partition;
        v.offset = raw.offset;
        out.collect(v);
    }

    /** Logs the report's lines once a period has passed (operator-side, never published). */
    static void log(InputReport report) {
        for (InputReport.Line l : report.due(System.currentTimeMillis())) {
            if (l.warn()) {
                LOG.warn(l.text());
            } else {
                LOG.info(l.text());
            }
        }
    }

    private void reject(
            Context ctx,
            RawRecord raw,
            String reason,
            String detail,
            String streamId,
            Long eventTime) {
        rejected.get(reason).inc();
        rejectedTotal.add(1);
        report.rejected(streamId, reason);
        log(report);
        ctx.output(
                DEAD_LETTERS,
                Rejections.deadLetter(
                        reason,
                        detail,
                        streamId,
                        eventTime,
                        raw.value,
                        raw.topic,
                        raw.partition,
                        raw.offset));
    }
}
