package org.dpclust.jobs;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * The configuration of an in-process Flink MiniCluster as the CLI's local runs ({@code dpclust
 * demo}, {@code dpclust batch} without a cluster) and the integration tests use it: no restarts (a
 * failure ends the run with its cause), and small managed and network memory so the cluster fits in
 * a small JVM heap.
 */
public final class LocalCluster {
    private LocalCluster() {}

    /** A fresh configuration (callers may add to it). */
    public static Configuration config() {
        Configuration c = new Configuration();
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("32m"));
        return c;
    }
}
