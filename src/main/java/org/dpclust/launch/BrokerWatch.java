package org.dpclust.launch;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.dpclust.config.KafkaConnection;

/**
 * Says when the Kafka cluster is lost and when it is back, for the long-running commands whose
 * clients would otherwise retry silently ({@code stream} in this JVM, {@code consume --follow}):
 * every {@code every} it asks the cluster to describe itself (one admin client, one connection);
 * the first failure after a success gives one warning line naming the servers and Kafka's reason,
 * another once a minute while the cluster stays away, and one line when it answers again. A daemon
 * thread; {@link #close} stops it.
 */
public final class BrokerWatch implements AutoCloseable {
    private static final Duration REMIND = Duration.ofMinutes(1);

    private final Thread thread;
    private volatile boolean closed;

    private BrokerWatch(Runnable loop) {
        this.thread = new Thread(loop, "dpclust-broker-watch");
        thread.setDaemon(true);
    }

    /**
     * Starts watching {@code kafka}'s cluster.
     *
     * @param lost receives the warning lines
     * @param back receives the line when the cluster answers again
     */
    public static BrokerWatch start(
            KafkaConnection kafka, Duration every, Consumer<String> lost, Consumer<String> back) {
        BrokerWatch[] self = new BrokerWatch[1];
        self[0] = new BrokerWatch(() -> self[0].run(kafka, every, lost, back));
        self[0].thread.start();
        return self[0];
    }

    private void run(
            KafkaConnection kafka, Duration every, Consumer<String> lost, Consumer<String> back) {
        int timeoutMs = (int) Math.max(1_000, every.toMillis());
        try (Admin admin =
                Admin.create(
                        kafka.clientProperties(
                                Map.of(
                                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                                        timeoutMs,
                                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                                        timeoutMs,
                                        AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                                        1_000)))) {
            long downSince = -1;
            long lastWarn = 0;
            while (!closed) {
                long t0 = System.nanoTime();
                String problem = probe(admin, timeoutMs);
                if (closed) {
                    return; // a probe cut short by close() is no lost broker
                }
                long now = System.currentTimeMillis();
                if (problem == null) {
                    if (downSince >= 0) {
                        back.accept(
                                "Kafka at "
                                        + kafka.bootstrapServers()
                                        + " answers again after "
                                        + Duration.ofMillis(now - downSince).toSeconds()
                                        + " s");
                        downSince = -1;
                    }
                } else if (downSince < 0 || now - lastWarn >= REMIND.toMillis()) {
                    if (downSince < 0) {
                        downSince = now;
                    }
                    lastWarn = now;
                    lost.accept(
                            "no answer from Kafka at "
                                    + kafka.bootstrapServers()
                                    + (now > downSince
                                            ? " for "
                                                    + Duration.ofMillis(now - downSince).toSeconds()
                                                    + " s"
                                            : "")
                                    + " ("
                                    + problem
                                    + "): the clients keep retrying; nothing is read, released or"
                                    + " charged until it is back");
                }
                long left = every.toMillis() - (System.nanoTime() - t0) / 1_000_000;
                if (left > 0) {
                    try {
                        Thread.sleep(left);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    private static String probe(Admin admin, int timeoutMs) {
        try {
            admin.describeCluster().clusterId().get(timeoutMs + 500L, TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            return c.getClass().getSimpleName()
                    + (c.getMessage() == null
                            ? ""
                            : ": " + c.getMessage().lines().findFirst().orElse(""));
        } catch (TimeoutException e) {
            return "timed out";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
