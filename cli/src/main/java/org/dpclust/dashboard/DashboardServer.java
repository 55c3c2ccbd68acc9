package org.dpclust.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.KafkaConnection;
import org.dpclust.io.AvroCodec;
import org.dpclust.kafka.TopicReader;

/**
 * The live view behind {@code dpclust dashboard}: a small HTTP server on 127.0.0.1 (the JDK's
 * {@code com.sun.net.httpserver}) plus one background thread that follows the centroids and budget
 * topics as a {@code read_committed} consumer, from the beginning, into a {@link DashboardState}.
 *
 * <p>Serves {@code /} (one self-contained HTML page: inline script and style, no external
 * resources; rendered per request with {@link DashboardPage#fill}, so without JavaScript it still
 * lists the latest releases) and {@code /api/state} (the state as JSON, snake_case). Only
 * published-side topics are read, centroid releases and budget events, plus — when given one — the
 * dead-letter topic, operator-side, of which only each record's stream and reason are counted
 * ({@link DashboardState#rejected}); never the input topic. The follower waits for the topics to
 * exist (it never creates them: a consumer's metadata request could auto-create the budget topic
 * without compaction) and skips undecodable records, counting them. {@link #start} binds and
 * starts; {@link #close} stops both.
 */
public final class DashboardServer implements AutoCloseable {
    private static final String PAGE_RESOURCE = "dashboard.html";

    private final KafkaConnection kafka;
    private final String centroidsTopic;
    private final String budgetTopic;
    private final String dlqTopic;
    private final int requestedPort;
    private final DashboardState state = new DashboardState();
    private final ObjectMapper json = new ObjectMapper();
    private volatile boolean running;
    private HttpServer http;
    private Thread follower;

    /**
     * @param port the port to bind on 127.0.0.1; 0 for a free one (see {@link #port()})
     */
    public DashboardServer(
            String bootstrapServers, String centroidsTopic, String budgetTopic, int port) {
        this(KafkaConnection.plaintext(bootstrapServers), centroidsTopic, budgetTopic, port);
    }

    /**
     * @param kafka the bootstrap servers and client properties (security, SASL, TLS)
     * @param port the port to bind on 127.0.0.1; 0 for a free one (see {@link #port()})
     */
    public DashboardServer(
            KafkaConnection kafka, String centroidsTopic, String budgetTopic, int port) {
        this(kafka, centroidsTopic, budgetTopic, null, port);
    }

    /**
     * @param dlqTopic the dead-letter topic whose records are counted per stream and reason
     *     (operator-side), or null to read only the published topics
     * @param port the port to bind on 127.0.0.1; 0 for a free one (see {@link #port()})
     */
    public DashboardServer(
            KafkaConnection kafka,
            String centroidsTopic,
            String budgetTopic,
            String dlqTopic,
            int port) {
        this.kafka = kafka;
        this.centroidsTopic = centroidsTopic;
        this.budgetTopic = budgetTopic;
        this.dlqTopic = dlqTopic;
        this.requestedPort = port;
        if (dlqTopic != null) {
            state.followingRejections();
        }
    }

    /** Binds the HTTP server and starts following the topics; returns this. */
    public DashboardServer start() throws IOException {
        String page;
        try (InputStream in = DashboardServer.class.getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + PAGE_RESOURCE);
            }
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        DashboardPage.fill(page, state.snapshot()); // fails now on a template without its marker
        http =
                HttpServer.create(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), requestedPort), 0);
        http.createContext(
                "/",
                ex -> {
                    if (!ex.getRequestURI().getPath().equals("/")) {
                        send(
                                ex,
                                404,
                                "text/plain; charset=utf-8",
                                "not found\n".getBytes(StandardCharsets.UTF_8));
                    } else {
                        send(
                                ex,
                                200,
                                "text/html; charset=utf-8",
                                DashboardPage.fill(page, state.snapshot())
                                        .getBytes(StandardCharsets.UTF_8));
                    }
                });
        http.createContext(
                "/api/state",
                ex -> send(ex, 200, "application/json", json.writeValueAsBytes(state.snapshot())));
        http.setExecutor(
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "dashboard-http");
                            t.setDaemon(true);
                            return t;
                        }));
        running = true;
        follower = new Thread(this::follow, "dashboard-follower");
        follower.setDaemon(true);
        follower.start();
        http.start();
        return this;
    }

    /** The bound port. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:PORT/}. */
    public String url() {
        return "http://127.0.0.1:" + port() + "/";
    }

    /** The state the page is drawn from (what {@code /api/state} serves). */
    public DashboardState state() {
        return state;
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body)
            throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private void follow() {
        AvroCodec<CentroidRelease> centroids = AvroCodec.centroids();
        AvroCodec<BudgetStatus> budget = AvroCodec.budget();
        AvroCodec<RejectedRecord> deadLetters = AvroCodec.rejected();
        while (running) {
            try {
                awaitTopics();
                try (TopicReader releases = new TopicReader(kafka, centroidsTopic);
                        TopicReader events = new TopicReader(kafka, budgetTopic);
                        TopicReader rejections =
                                dlqTopic == null ? null : new TopicReader(kafka, dlqTopic)) {
                    while (running) {
                        if (rejections != null) {
                            rejections.poll(
                                    Duration.ofMillis(100),
                                    r -> {
                                        try {
                                            RejectedRecord d =
                                                    deadLetters.decodePublished(r.value());
                                            state.rejected(d.getStreamId(), d.getReason());
                                        } catch (IOException e) {
                                            state.rejected(null, "unreadable dead letter");
                                        }
                                    });
                        }
                        releases.poll(
                                Duration.ofMillis(200),
                                r -> {
                                    try {
                                        state.add(centroids.decodePublished(r.value()));
                                    } catch (IOException e) {
                                        state.skipped();
                                    }
                                });
                        events.poll(
                                Duration.ofMillis(200),
                                r -> {
                                    try {
                                        state.add(budget.decode(r.value()));
                                    } catch (IOException e) {
                                        state.skipped();
                                    }
                                });
                    }
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                System.err.println(
                        "dpclust dashboard: " + e.getMessage() + " (" + cause + "); retrying");
                pause(2000);
            }
        }
    }

    /** Blocks until the followed topics exist (or the server stops). */
    private void awaitTopics() {
        Admin admin =
                Admin.create(
                        kafka.clientProperties(
                                Map.of(
                                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                                        10_000,
                                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                                        10_000)));
        try {
            boolean told = false;
            while (running) {
                Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
                if (names.contains(centroidsTopic)
                        && names.contains(budgetTopic)
                        && (dlqTopic == null || names.contains(dlqTopic))) {
                    return;
                }
                if (!told) {
                    System.err.printf(
                            "dpclust dashboard: waiting for topics %s and %s%s on %s%n",
                            centroidsTopic,
                            budgetTopic,
                            dlqTopic == null ? "" : " and " + dlqTopic,
                            kafka.bootstrapServers());
                    told = true;
                }
                pause(1000);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot list topics on " + kafka.bootstrapServers() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            admin.close(Duration.ZERO); // do not wait for a pending request when stopping
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the HTTP server and the follower. */
    @Override
    public void close() {
        running = false;
        if (http != null) {
            http.stop(0);
            ((ExecutorService) http.getExecutor()).shutdownNow();
        }
        if (follower != null) {
            try {
                // its polls return within 200 ms and it then sees !running; interrupting a Kafka
                // consumer instead makes its close() log an error
                follower.join(2000);
                if (follower.isAlive()) {
                    follower.interrupt(); // ends a blocked metadata wait
                    follower.join(5000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
