package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.stream.ReleasedSketch;
import org.dpclust.stream.ValidRecord;
import org.dpclust.stream.WindowPartial;
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
            job: {start: "2026-01-01T00:00:00Z"}
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
                    RawRecord.class,
                    ValidRecord.class,
                    WindowPartial.class,
                    ReleasedSketch.class,
                    OutboundRecord.class
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
            StreamingJob.fromKafka(CONFIG, TestRandoms.SECRET, Map.of()).wire(env);
        }
        return env;
    }

    @Test
    void theJobAndTheBenchmarkBaselineBuildWithGenericTypesDisabled() {
        wired(false).getStreamGraph();
        wired(true).getStreamGraph();
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
