package org.dpclust.jobs;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.DpclustConfig;
import org.dpclust.kafka.ClockTicker;
import org.dpclust.kafka.TopicAdmin;

/**
 * Wires the release clock (docs/event-time.md#the-release-clock): a generator emitting one element
 * per {@code job.tick_interval}, on the interval's multiples of the wall clock ({@link
 * AlignedTicks}), into the {@link ClockTicker}, which appends a tick to every input partition; both
 * at parallelism 1, a sub-graph of their own, so the clock's threads and broker connections do not
 * grow with the fleet. The ticks come back through the job's own Kafka source, where they move each
 * partition's watermark ({@link org.dpclust.stream.AppendTimeWatermarks}).
 */
public final class ReleaseClock {
    private ReleaseClock() {}

    /** Adds the clock to {@code env}. */
    public static void wire(StreamExecutionEnvironment env, DpclustConfig config) {
        var ticks =
                new DataGeneratorSource<>(
                        i -> i,
                        Long.MAX_VALUE,
                        new AlignedTicks(config.job().tickInterval().toMillis()),
                        Types.LONG);
        env.fromSource(ticks, WatermarkStrategy.noWatermarks(), "release-clock")
                .uid("release-clock")
                .setParallelism(1)
                .sinkTo(ClockTicker.of(config))
                .name("release-clock-ticks")
                .uid("release-clock-ticks")
                .setParallelism(1);
    }

    /**
     * Appends one tick to every input topic and waits for it: a job whose clock cannot write (no
     * Write ACL on an input topic) fails at start-up with one line naming {@code
     * job.release_clock}, instead of never releasing.
     */
    public static void probe(DpclustConfig config) {
        try {
            ClockTicker.of(config).probe(java.time.Duration.ofSeconds(30));
        } catch (IllegalStateException e) {
            throw new org.dpclust.config.ConfigException(
                    "job.release_clock",
                    e.getMessage()
                            + "; the release clock needs Write on the input topics"
                            + " (docs/deploy.md#acls-the-principal-needs), or set"
                            + " job.release_clock: records");
        }
    }

    /**
     * The source's parallelism under the clock: at most the fewest partitions of any input topic,
     * so no source subtask is left without a partition (and so without ticks) — with no idleness,
     * such a subtask would hold the watermark back for ever.
     */
    public static int sourceParallelism(DpclustConfig config, int jobParallelism) {
        return Math.min(jobParallelism, TopicAdmin.fewestInputPartitions(config));
    }
}
