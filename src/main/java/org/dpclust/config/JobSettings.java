package org.dpclust.config;

import java.io.Serializable;
import java.time.Duration;

/**
 * Flink-side settings of the streaming job.
 *
 * @param checkpointInterval exactly-once output becomes visible when a checkpoint completes
 * @param maxOutOfOrderness bounded out-of-orderness of the watermark strategy; allowed lateness is
 *     0
 * @param idleTimeout a source partition silent this long stops holding back the watermark
 * @param boundedInput read the input topic only up to its end offsets at start (tests, demo,
 *     replays)
 * @param parallelism job parallelism (0 = Flink default)
 * @param decodeParallelism subtasks of the ckm sketch decoder (0 = the job parallelism)
 */
public record JobSettings(
        Duration checkpointInterval,
        Duration maxOutOfOrderness,
        Duration idleTimeout,
        boolean boundedInput,
        int parallelism,
        int decodeParallelism)
        implements Serializable {

    public JobSettings withBoundedInput(boolean bounded) {
        return new JobSettings(
                checkpointInterval,
                maxOutOfOrderness,
                idleTimeout,
                bounded,
                parallelism,
                decodeParallelism);
    }
}
