package org.dpclust.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.flink.configuration.Configuration;
import org.dpclust.config.ConfigException;

/**
 * {@code --metrics-port} of the commands that run a job in their own JVM ({@code stream}, {@code
 * local}): Flink's Prometheus reporter, configured as the deployment kit configures it (stream ids
 * in labels as they are: {@code b-3d}, not {@code b_3d}), serving {@code /metrics} on the port.
 * Operator-side: the counters are not DP releases. The reporter listens on every interface (Flink
 * has no host option).
 */
public final class PrometheusEndpoint {
    static final String FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

    private PrometheusEndpoint() {}

    /**
     * Fails with one line naming {@code option} unless {@code port} is in 1..65535, free on
     * 127.0.0.1 and the reporter is on the class path.
     */
    public static void require(String option, int port) {
        if (port < 1 || port > 65535) {
            throw new ConfigException(option, "must be in 1..65535, got " + port);
        }
        try {
            Class.forName(FACTORY, false, PrometheusEndpoint.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ConfigException(
                    option,
                    "needs Flink's Prometheus reporter on the class path (target/dpclust.jar has"
                            + " it; on a cluster, configure the reporter as docs/deploy.md shows)");
        }
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new ConfigException(
                    option,
                    "127.0.0.1:"
                            + port
                            + " is already in use ("
                            + e.getMessage()
                            + "); stop what uses it or pass another port");
        }
    }

    /** Adds the reporter on {@code port} to a MiniCluster's configuration. */
    public static void configure(Configuration flink, int port) {
        flink.setString("metrics.reporters", "prom");
        flink.setString("metrics.reporter.prom.factory.class", FACTORY);
        flink.setString("metrics.reporter.prom.port", Integer.toString(port));
        flink.setString("metrics.reporter.prom.filterLabelValueCharacters", "false");
    }
}
