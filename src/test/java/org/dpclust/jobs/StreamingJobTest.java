package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.InstantiationUtil;
import org.dpclust.batch.BatchParams;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.RawRecord;
import org.dpclust.ledger.LedgerSettings;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.ReleasedSketch;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Test;

/**
 * The job's record types have Flink's POJO serializer and Kryo is forbidden for everything else.
 */
class StreamingJobTest {
    private static final DpclustConfig CONFIG =
            ConfigLoader.parse(
                    """
            kafka:
              bootstrap_servers: "127.0.0.1:1"
              properties:
                security.protocol: SASL_SSL
                sasl.jaas.config: 'm required password="${env:KAFKA_PASSWORD}";'
            job: {start: "2026-01-01T00:00:00Z", release_clock: records}
            streams:
              - id: a
                dimension: 2
                lower: [0, 0]
                upper: [1, 1]
                k: 2
                window: PT10S
                epsilon_per_release: 1.0
                budget_cap: 10
                summaries: [stats, ckm, dp-hst]
                hst: {universe: 64}
                salt_buckets: 4
            """);

    @Test
    void recordTypesArePojosAndKryoIsForbidden() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamingJob.forbidKryo(env);
        assertTrue(env.getConfig().getSerializerConfig().hasGenericTypesDisabled());
        for (Class<?> c :
                new Class<?>[] {
                    RawRecord.class, ValidRecord.class, WindowPartial.class, ReleasedSketch.class
                }) {
            TypeInformation<?> t = TypeInformation.of(c);
            assertFalse(
                    t instanceof org.apache.flink.api.java.typeutils.GenericTypeInfo,
                    c + " falls back to Kryo");
            assertTrue(
                    t instanceof org.apache.flink.api.java.typeutils.PojoTypeInfo,
                    c + " is a Flink POJO");
        }
    }

    /**
     * Building the stream graph creates every edge's serializer: it fails if any would be Kryo's.
     */
    private static StreamExecutionEnvironment wired(boolean nonPrivate) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (nonPrivate) {
            StreamingJob.configure(env, CONFIG);
            NonPrivateMeanTopology.build(
                    env, KafkaEndpoints.source(CONFIG), KafkaEndpoints.sink(CONFIG), CONFIG);
        } else {
            StreamingJob.fromKafka(CONFIG, TestRandoms.secretSource()).wire(env);
            ReleaseClock.wire(env, CONFIG); // as wire() adds it under release_clock: ticks
        }
        return env;
    }

    @Test
    void theJobAndTheBenchmarkBaselineBuildWithGenericTypesDisabled() {
        wired(false).getStreamGraph();
        wired(true).getStreamGraph();
    }

    /**
     * The job graph as the client ships it to the JobManager (Java serialization, operators
     * included as their serialized bytes): it names where the secret is, never the secret.
     */
    @Test
    void theBatchRunKeepsTheKafkaClientProperties() {
        DpclustConfig c =
                BatchJob.batchConfig(
                        CONFIG, "t", "a", new PrivacyLedger.Interval(0, 10_000), "run-1");
        assertEquals(CONFIG.kafka().properties(), c.kafka().properties());
        assertEquals(
                CONFIG.kafka().properties(), LedgerSettings.of(c.kafka()).kafka().properties());
    }

    @Test
    void theSerializedJobGraphsCarryWhereTheSecretIsButNotTheSecret() throws Exception {
        SecretSource where = TestRandoms.secretSource();
        StreamExecutionEnvironment stream = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamingJob.fromKafka(CONFIG, where).wire(stream);
        StreamExecutionEnvironment batch = StreamExecutionEnvironment.getExecutionEnvironment();
        PrivacyLedger.Interval interval = new PrivacyLedger.Interval(0, 10_000);
        BatchRun run =
                BatchRun.create(
                        CONFIG,
                        CONFIG.streams().get(0),
                        "stats",
                        new BatchParams(
                                2,
                                1.0,
                                new DomainBounds(new double[2], new double[] {1, 1}),
                                1,
                                1,
                                64,
                                Double.NaN,
                                1),
                        interval,
                        where);
        DpclustConfig c =
                BatchJob.batchConfig(CONFIG, "telemetry", run.spec().id(), interval, run.runId());
        new BatchJob(
                        KafkaEndpoints.source(c),
                        KafkaEndpoints.sink(c),
                        run.withConfig(c),
                        LedgerSettings.of(c.kafka()))
                .wire(batch);
        byte[] key = HexFormat.of().parseHex(TestRandoms.SECRET_HEX);
        for (StreamExecutionEnvironment env : List.of(stream, batch)) {
            byte[] graph = InstantiationUtil.serializeObject(env.getStreamGraph().getJobGraph());
            assertTrue(
                    contains(graph, where.file().getBytes(StandardCharsets.UTF_8)),
                    "the operators' serialized bytes are searched: the secret's location is found");
            assertFalse(contains(graph, key), "the secret's bytes are in the job graph");
            assertTrue(
                    contains(graph, "${env:KAFKA_PASSWORD}".getBytes(StandardCharsets.UTF_8)),
                    "the Kafka client properties reach the job (as the reference, not a value)");
            assertFalse(
                    contains(graph, Arrays.copyOf(key, PrivacySecret.MIN_KEY_BYTES)),
                    "a prefix of the secret's bytes is in the job graph");
            assertFalse(
                    contains(graph, TestRandoms.SECRET_HEX.getBytes(StandardCharsets.UTF_8)),
                    "the secret's hex is in the job graph");
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Not a POJO (no default constructor): Flink would serialize it with Kryo. */
    static final class Opaque {
        final int x;

        Opaque(int x) {
            this.x = x;
        }
    }

    @Test
    void aTypeThatWouldFallBackToKryoFailsTheBuild() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamingJob.forbidKryo(env);
        env.fromData(1, 2).map(i -> new Opaque(i)).returns(Opaque.class).print();
        assertThrows(UnsupportedOperationException.class, env::getStreamGraph);
    }
}
