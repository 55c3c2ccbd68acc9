package org.dpclust.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpclust.batch.BatchParams;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;

/**
 * What the ledger ITs share: a {@code stats} batch run of a stream from Kafka that starts when a
 * barrier trips (so several writers charge the ledger at once), and a topic read back as a
 * read_committed consumer would.
 */
public final class LedgerTestRuns {
    private LedgerTestRuns() {}

    /**
     * A {@code stats} {@link BatchJob} over {@code interval} of the configuration's input topic,
     * built now, executed on the MiniCluster once {@code go} trips; returns its charge key.
     */
    public static Callable<String> statsBatchRun(
            DpclustConfig cfg,
            StreamSpec spec,
            BatchParams params,
            PrivacyLedger.Interval interval,
            CyclicBarrier go) {
        return () -> {
            BatchJob job =
                    BatchJob.fromKafka(
                            cfg.kafka().inputTopic(),
                            BatchRun.create(
                                    cfg,
                                    spec,
                                    "stats",
                                    params,
                                    interval,
                                    TestRandoms.secretSource()));
            go.await(60, TimeUnit.SECONDS);
            job.execute(StreamExecutionEnvironment.getExecutionEnvironment(LocalCluster.config()));
            return job.chargeKey();
        };
    }

    /** A {@code stats} batch run's parameters from the stream's public ones, at k and ε. */
    public static BatchParams statsParams(StreamSpec spec, int k, double epsilon) {
        return new BatchParams(
                k,
                epsilon,
                new DomainBounds(spec.lower(), spec.upper()),
                spec.publicSeed(),
                BatchParams.DEFAULT_N_INIT,
                spec.statsCells(),
                spec.statsCountFraction(),
                spec.unitContribution());
    }

    /**
     * Adds a CHARGE's ε to each of {@code into.length} consecutive windows of length {@code w} from
     * {@code t0} whose start instant it covers (record units: the spend at an instant is what is
     * charged to intervals containing it).
     */
    public static void addToWindows(
            org.dpclust.avro.BudgetStatus b, long t0, long w, double[] into) {
        for (int i = 0; i < into.length; i++) {
            long t = t0 + i * w;
            if (b.getWindowStart().toEpochMilli() <= t && t < b.getWindowEnd().toEpochMilli()) {
                into[i] += b.getEpsilon();
            }
        }
    }

    /** Every record of {@code topic}, decoded, as a read_committed consumer sees them. */
    public static <T extends SpecificRecordBase> List<T> read(
            String bootstrapServers, String topic, AvroCodec<T> codec) throws Exception {
        List<T> out = new ArrayList<>();
        try (TopicReader reader = new TopicReader(bootstrapServers, topic)) {
            for (ConsumerRecord<byte[], byte[]> rec : reader.readToEnd(Duration.ofSeconds(30))) {
                out.add(codec.decode(rec.value()));
            }
        }
        return out;
    }
}
