package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.SnapshotRelease;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerClient;
import org.dpclust.ledger.LedgerClientFactory;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.window.ReleaseAssembler;
import org.dpclust.window.ReleasedCentroids;
import org.dpclust.window.ValidRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-key snapshot of a batch run (key = stream id, BATCH execution mode): collects the
 * features of the stream's records whose event time lies in the PUBLIC interval [from, to) —
 * records outside it are dropped and counted (metric {@code
 * dpclust.batch_records_outside_interval}, operator-side) — and, when the key's input ends, calls
 * the core ({@link SnapshotRelease}), charging the stream's ledger through its fenced single writer
 * ({@link KafkaLedgerClient}, docs/ledger.md) under the charge key {@code
 * stream|batch|algorithm|from:to|runId}. The charge's CHARGE or REFUSED {@code BudgetStatus} is
 * committed on the budget topic by the ledger writer before the algorithm runs; this function then
 * emits, unless refused, the {@code CentroidRelease} (mode {@code batch}) through the job's sink —
 * so a release is never published without its charge. A task retried within the run re-charges the
 * same key and gets the recorded decision (nothing is charged twice); a crash between charge and
 * release over-counts, never under-counts. A marker element (features null) makes the key exist
 * even for an empty snapshot, so whether a release happens does not depend on the data. The secret
 * is loaded on the TaskManager ({@link SecretSource}), never carried in the job graph. No algorithm
 * code lives here.
 */
public class SnapshotReleaseFunction extends KeyedProcessFunction<String, ValidRecord, Publication>
        implements ResultTypeQueryable<Publication> {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotReleaseFunction.class);

    private final StreamSpec spec;
    private final String algorithmName;
    private final BatchParams params;
    private final long
            from; // the public interval [from, to) (PrivacyLedger.Interval is not Serializable)
    private final long to;
    private final SecretSource secretSource;
    private final LedgerClientFactory ledgerFactory;
    private final String runId;

    private transient ListState<double[]> points;
    private transient Counter outside;
    private transient LedgerClient ledger;

    /**
     * @param secretSource where the TaskManager loads the secret from
     * @param ledgerFactory opens the stream's ledger client on the TaskManager ({@link
     *     org.dpclust.ledger.LedgerSettings}: the fenced writer on the budget topic)
     * @param runId this batch run's id: part of the charge key, the same for retries inside the run
     */
    public SnapshotReleaseFunction(
            StreamSpec spec,
            String algorithmName,
            BatchParams params,
            PrivacyLedger.Interval interval,
            SecretSource secretSource,
            LedgerClientFactory ledgerFactory,
            String runId) {
        this.spec = spec;
        this.algorithmName = algorithmName;
        this.params = params;
        this.from = interval.start();
        this.to = interval.end();
        this.secretSource = secretSource;
        this.ledgerFactory = ledgerFactory;
        this.runId = runId;
    }

    /** The element that opens the stream's key even when no record falls in the interval. */
    public static ValidRecord marker(String streamId) {
        ValidRecord m = new ValidRecord();
        m.streamId = streamId;
        m.deviceId = "";
        m.topic = "";
        return m;
    }

    /** Publications travel with their own serializer, not Kryo. */
    @Override
    public TypeInformation<Publication> getProducedType() {
        return PublicationTypeInfo.INSTANCE;
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
    public void processElement(ValidRecord r, Context ctx, Collector<Publication> out)
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
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Publication> out)
            throws Exception {
        PrivacyLedger.Interval interval = new PrivacyLedger.Interval(from, to);
        List<double[]> collected = new ArrayList<>();
        for (double[] p : points.get()) {
            collected.add(p);
        }
        points.clear();
        BatchAlgorithm algorithm = BatchAlgorithms.get(algorithmName);
        if (ledger == null) {
            ledger = ledgerFactory.open();
        }
        SnapshotRelease.Outcome o =
                SnapshotRelease.runCharged(
                        algorithm,
                        params,
                        collected.toArray(new double[0][]),
                        spec.id(),
                        interval,
                        (i, eps) ->
                                ledger.charge(
                                                LedgerCharge.batch(
                                                        spec, algorithm.name(), i, runId, eps),
                                                LedgerMark.NONE)
                                        .decision(),
                        algorithm.isPrivate() ? secretSource.load() : null);
        if (!o.refused()) {
            long covered =
                    Math.max(
                            1,
                            Math.floorDiv(
                                    interval.end() - interval.start() + spec.windowMillis() - 1,
                                    spec.windowMillis()));
            out.collect(
                    new Publication.Centroids(
                            ReleaseAssembler.release(
                                    spec,
                                    algorithm.name(),
                                    "batch",
                                    algorithm.guarantee(),
                                    interval.start(),
                                    interval.end(),
                                    (int) covered,
                                    new ReleasedCentroids(
                                            o.result().centroids(),
                                            o.result().weights(),
                                            o.result().parameters()),
                                    o.decision())));
        }
        LOG.info(
                "stream {} interval {} batch {} {}: epsilon {}, spent {}/{}",
                spec.id(),
                interval.iso(),
                algorithm.name(),
                o.refused() ? "REFUSED (cap reached)" : "released",
                o.decision().epsilon(),
                o.decision().spent(),
                o.decision().cap());
    }

    @Override
    public void close() throws Exception {
        if (ledger != null) {
            ledger.close();
            ledger = null;
        }
        super.close();
    }
}
