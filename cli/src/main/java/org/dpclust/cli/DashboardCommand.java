package org.dpclust.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.KafkaSettings;
import org.dpclust.dashboard.DashboardServer;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.BrokerCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpclust dashboard}: serves a live local web page (127.0.0.1 only) that follows the
 * published-side topics, centroid releases and budget events, as a {@code read_committed} consumer
 * from the beginning, and plots per stream the latest DP centroids over the declared domain, their
 * movement across windows and spent against the cap; and, unless {@code --published-only}, how many
 * records the job rejected per stream and reason, counted from the dead-letter topic
 * (operator-side, marked as never published; only each dead letter's stream and reason are read).
 * Never reads the input topic. Prints the URL on stderr and runs until interrupted. The work is in
 * {@link DashboardServer}; this command only wires options to it.
 */
@Command(
        name = "dashboard",
        mixinStandardHelpOptions = true,
        description =
                "Serve a live local web page plotting each stream's DP centroids and privacy spend.")
public final class DashboardCommand implements Callable<Integer> {
    @Mixin BootstrapServersOption kafka;

    @Option(
            names = "--port",
            defaultValue = "8080",
            description = "Port on 127.0.0.1; 0 picks a free one (default ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--centroids-topic",
            defaultValue = KafkaSettings.DEFAULT_CENTROIDS,
            description = "Default ${DEFAULT-VALUE}.")
    String centroidsTopic;

    @Option(
            names = "--budget-topic",
            defaultValue = KafkaSettings.DEFAULT_BUDGET,
            description = "Default ${DEFAULT-VALUE}.")
    String budgetTopic;

    @Option(
            names = "--dlq-topic",
            defaultValue = KafkaSettings.DEFAULT_DLQ,
            description =
                    "Dead-letter topic whose records are counted per stream and reason"
                            + " (operator-side; default ${DEFAULT-VALUE}).")
    String dlqTopic;

    @Option(
            names = "--published-only",
            description = "Read only the published topics (no rejected-record counts).")
    boolean publishedOnly;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be in 0..65535, got " + port);
        }
        KafkaConnection connection = kafka.connection();
        BrokerCheck.require("--bootstrap-servers", connection, kafka.propertiesOptionName());
        DashboardServer server =
                new DashboardServer(
                                connection,
                                centroidsTopic,
                                budgetTopic,
                                publishedOnly ? null : dlqTopic,
                                port)
                        .start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    server.close();
                                    stopped.countDown();
                                },
                                "dashboard-shutdown"));
        System.err.println(
                "dpclust dashboard: "
                        + server.url()
                        + " (following "
                        + centroidsTopic
                        + " and "
                        + budgetTopic
                        + (publishedOnly ? "" : " and " + dlqTopic)
                        + " on "
                        + kafka.require()
                        + "; Ctrl-C to stop)");
        stopped.await();
        return 0;
    }
}
