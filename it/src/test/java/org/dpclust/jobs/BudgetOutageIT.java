package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.ledger.LedgerScan;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The budget topic unavailable for writes while windows are due: on the single-node broker its
 * {@code min.insync.replicas} is raised to 2 (with one replica, every {@code acks=all} write — each
 * ledger charge — fails with the retriable NOT_ENOUGH_REPLICAS; reads still work) before the job
 * starts, and restored {@value #OUTAGE_SECONDS} s later. During the outage no release may be
 * published and no charge committed (a release is only published after its charge); after it, every
 * release appears exactly once, byte-identical to an undisturbed run, and the budget topic holds
 * the same charges as the undisturbed run's.
 */
class BudgetOutageIT {
    private static final long W = StreamingRuns.W;
    private static final long START = StreamingRuns.START;
    private static final int WINDOWS = 3;
    private static final int OUTAGE_SECONDS = 20;

    @RegisterExtension static final MiniClusterExtension FLINK = StreamingRuns.miniCluster();

    private static EmbeddedKafka kafka;
    private static StreamingRuns runs;

    @BeforeAll
    static void startKafka() {
        // an authorizer that allows everything no ACL mentions: the test takes the budget topic
        // away with a DENY ACL and gives it back by deleting it
        kafka =
                EmbeddedKafka.start(
                        0,
                        null,
                        Map.of(
                                "authorizer.class.name",
                                "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                                "allow.everyone.if.no.acl.found",
                                "true"));
        runs = new StreamingRuns(kafka);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static DpclustConfig config(String name) {
        DpclustConfig c =
                runs.boundedConfig(
                        name,
                        START,
                        START + WINDOWS * W,
                        """
                                  - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S,
                                     epsilon_per_release: 1.0, budget_cap: 100, public_seed: 1}
                                  - {id: b, dimension: 3, lower: [-1, -1, -1], upper: [1, 1, 1], k: 2,
                                     window: PT10S, epsilon_per_release: 1.0, budget_cap: 100,
                                     public_seed: 2}
                                """);
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            new SyntheticTelemetry(c.streams(), START, WINDOWS, 1_000, 0, 50, 7).write(p);
        }
        return c;
    }

    /** Every operation on the budget topic denied to the (only, anonymous) clients. */
    private static AclBinding denyBudget(DpclustConfig c) {
        return new AclBinding(
                new ResourcePattern(
                        ResourceType.TOPIC, c.kafka().budgetTopic(), PatternType.LITERAL),
                new AccessControlEntry(
                        "User:ANONYMOUS", "*", AclOperation.ALL, AclPermissionType.DENY));
    }

    private static Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return Admin.create(p);
    }

    /** The budget topic's records, every field but the topic's own id, in order. */
    private static List<String> ledger(DpclustConfig c) throws Exception {
        List<String> l = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : runs.committed(c.kafka().budgetTopic())) {
            BudgetStatus s = AvroCodec.budget().decode(r.value());
            s.setTopicId("");
            l.add(s.toString());
        }
        return l;
    }

    @Test
    void releasesWaitForTheirChargesWhileTheBudgetTopicIsDown() throws Exception {
        DpclustConfig reference = config("calm");
        runs.runBounded(reference, new RawRecordDeserializer(), "none");
        Map<String, byte[]> undisturbed = runs.byWindow(reference);
        assertEquals(2 * WINDOWS, undisturbed.size(), "2 streams x windows: " + undisturbed);

        DpclustConfig c = config("outage");
        StreamingJob job =
                new StreamingJob(
                        KafkaEndpoints.source(c, new RawRecordDeserializer()),
                        KafkaEndpoints.sink(c),
                        c,
                        TestRandoms.secretSource(),
                        LedgerScan.lastChargedEnds(
                                LedgerSettings.of(c.kafka()),
                                c.streams().stream().map(s -> s.id()).toList(),
                                Duration.ofSeconds(30)));
        AclBinding deny = denyBudget(c);
        JobClient client;
        try (Admin admin = admin()) {
            admin.createAcls(List.of(deny)).all().get(30, TimeUnit.SECONDS);
            client =
                    job.executeAsync(
                            StreamingRuns.env("fixed-delay", 1_000, Duration.ofSeconds(1)));
            try {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(OUTAGE_SECONDS);
                while (System.nanoTime() < until) {
                    Thread.sleep(2_000);
                    assertTrue(
                            runs.committed(c.kafka().centroidsTopic()).isEmpty(),
                            "no release is published while its charge cannot be written");
                    JobStatus s = client.getJobStatus().get(10, TimeUnit.SECONDS);
                    assertFalse(s.isGloballyTerminalState(), "the job goes on: " + s);
                }
                System.out.printf(
                        "BudgetOutageIT: budget topic denied for %d s; job %s; 0 releases"
                                + " meanwhile%n",
                        OUTAGE_SECONDS, client.getJobStatus().get(10, TimeUnit.SECONDS));
            } finally {
                admin.deleteAcls(List.of(deny.toFilter())).all().get(30, TimeUnit.SECONDS);
            }
        }
        client.getJobExecutionResult().get(3, TimeUnit.MINUTES);

        Map<String, byte[]> disturbed = runs.byWindow(c); // fails on a duplicate
        assertEquals(undisturbed.keySet(), disturbed.keySet(), "every window released once");
        for (String k : undisturbed.keySet()) {
            assertArrayEquals(undisturbed.get(k), disturbed.get(k), "release " + k);
        }
        List<String> expected = ledger(reference);
        List<String> got = ledger(c);
        assertEquals(expected.size(), got.size(), "the same number of budget records");
        assertEquals(
                new java.util.TreeSet<>(expected),
                new java.util.TreeSet<>(got),
                "the same charges as the undisturbed run");
        System.out.printf(
                "BudgetOutageIT: after the outage %d releases byte-identical to the undisturbed"
                        + " run, %d budget records equal to its%n",
                disturbed.size(), got.size());
    }
}
