package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.SnapshotRelease;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.OutboundRecord;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;

/**
 * The per-key snapshot of a batch run (key = stream id, BATCH execution mode): collects the
 * features of the stream's records whose event time lies in the PUBLIC interval [from, to) —
 * records outside it are dropped and counted (metric {@code
 * dpclust.batch_records_outside_interval}, operator-side) — and, when the key's input ends, calls
 * the core ({@link SnapshotRelease}) and emits the published messages: the {@code BudgetStatus}
 * (CHARGE or REFUSED) and, unless refused, the {@code CentroidRelease} (mode {@code batch}). A
 * marker element (features null) makes the key exist even for an empty snapshot, so whether a
 * release happens does not depend on the data. No algorithm code lives here.
 */
public class SnapshotReleaseFunction
        extends KeyedProcessFunction<String, ValidRecord, OutboundRecord> {
    private final StreamSpec spec;
    private final String algorithmName;
    private final BatchParams params;
    private final long
            from; // the public interval [from, to) (PrivacyLedger.Interval is not Serializable)
    private final long to;
    private final PrivacySecret secret;
    private final Map<String, Double> ledgerSnapshot;
    private final String centroidsTopic;
    private final String budgetTopic;

    private transient ListState<double[]> points;
    private transient Counter outside;

    /**
     * @param ledgerSnapshot the stream's charged totals read from the budget topic at start
     *     (interval key → epsilon)
     */
    public SnapshotReleaseFunction(
            StreamSpec spec,
            String algorithmName,
            BatchParams params,
            PrivacyLedger.Interval interval,
            PrivacySecret secret,
            Map<String, Double> ledgerSnapshot,
            String centroidsTopic,
            String budgetTopic) {
        this.spec = spec;
        this.algorithmName = algorithmName;
        this.params = params;
        this.from = interval.start();
        this.to = interval.end();
        this.secret = secret;
        this.ledgerSnapshot = ledgerSnapshot;
        this.centroidsTopic = centroidsTopic;
        this.budgetTopic = budgetTopic;
    }

    /** The element that opens the stream's key even when no record falls in the interval. */
    public static ValidRecord marker(String streamId) {
        ValidRecord m = new ValidRecord();
        m.streamId = streamId;
        m.deviceId = "";
        m.topic = "";
        return m;
    }

    @Override
    public void open(OpenContext ctx) {
        points =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "snapshot",
                                        PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
        outside =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup("dpclust")
                        .counter("batch_records_outside_interval");
    }

    @Override
    public void processElement(ValidRecord r, Context ctx, Collector<OutboundRecord> out)
            throws Exception {
        // in BATCH mode every event-time timer of a key fires when the key's input ends
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        if (r.features == null) {
            return;
        }
        if (r.eventTime < from || r.eventTime >= to) {
            outside.inc();
            return;
        }
        points.add(r.features);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<OutboundRecord> out)
            throws Exception {
        PrivacyLedger.Interval interval = new PrivacyLedger.Interval(from, to);
        List<double[]> collected = new ArrayList<>();
        for (double[] p : points.get()) {
            collected.add(p);
        }
        points.clear();
        PrivacyLedger ledger =
                new PrivacyLedger(
                        spec.cap(),
                        spec.budgetPeriodMillis(),
                        spec.privacyUnit() == PrivacyUnit.DEVICE);
        ledgerSnapshot.forEach((k, v) -> ledger.restore(PrivacyLedger.Interval.parse(k), v));
        BatchAlgorithm algorithm = BatchAlgorithms.get(algorithmName);
        SnapshotRelease.Outcome o =
                SnapshotRelease.run(
                        algorithm,
                        params,
                        collected.toArray(new double[0][]),
                        spec.id(),
                        interval,
                        ledger,
                        secret);
        BudgetStatus status =
                ReleaseAssembler.budget(spec, "batch", algorithm.name(), o.decision());
        if (!o.refused()) {
            long covered =
                    Math.max(
                            1,
                            Math.floorDiv(
                                    interval.end() - interval.start() + spec.windowMillis() - 1,
                                    spec.windowMillis()));
            out.collect(
                    ReleaseAssembler.toOutbound(
                            centroidsTopic,
                            ReleaseAssembler.release(
                                    spec,
                                    algorithm.name(),
                                    "batch",
                                    algorithm.guarantee(),
                                    interval.start(),
                                    interval.end(),
                                    (int) covered,
                                    o.asRelease(),
                                    o.decision())));
        }
        out.collect(ReleaseAssembler.toOutbound(budgetTopic, status));
    }
}
