package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A real Apicurio Registry (testkit/apicurio-registry, in-memory storage) in a child JVM on a free
 * port, for the ITs: {@link #ccompatUrl()} is its Confluent-compatible API (what dpclust's
 * avro-registry input reads), {@link #serializerConfig()} configures Apicurio's own Avro serializer
 * to register schemas there and write the Confluent wire format (byte 0, the 4-byte content id).
 */
public final class ApicurioRegistry implements AutoCloseable {
    static final Path RUNNER =
            Path.of("testkit/apicurio-registry/target/dpclust-test-registry-1-runner.jar");

    private final Process process;
    private final int port;

    private ApicurioRegistry(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the registry and waits (at most 90 s) until its API answers. */
    public static ApicurioRegistry start(Path log) throws Exception {
        assertTrue(
                Files.exists(RUNNER),
                RUNNER + " is built by `mvn verify` (module testkit/apicurio-registry)");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p =
                new ProcessBuilder(
                                java,
                                "-Xmx384m",
                                "-Dquarkus.http.port=" + port,
                                "-Dquarkus.http.host=127.0.0.1",
                                "-jar",
                                RUNNER.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        ApicurioRegistry r = new ApicurioRegistry(p, port);
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            if (!p.isAlive()) {
                fail("the registry exited with " + p.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                var resp =
                        http.send(
                                HttpRequest.newBuilder(URI.create(r.ccompatUrl() + "/subjects"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                if (resp.statusCode() == 200) {
                    return r;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                r.close();
                fail("the registry did not answer within 90 s:\n" + Files.readString(log));
            }
            Thread.sleep(250);
        }
    }

    /** Confluent's REST API as Apicurio serves it. */
    public String ccompatUrl() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    /** Apicurio's serializer: auto-registering, Confluent framing with the content id. */
    public Map<String, Object> serializerConfig() {
        Map<String, Object> c = new HashMap<>();
        c.put("apicurio.registry.url", "http://127.0.0.1:" + port + "/apis/registry/v2");
        c.put("apicurio.registry.auto-register", "true");
        c.put("apicurio.registry.headers.enabled", "false");
        c.put("apicurio.registry.as-confluent", "true");
        c.put("apicurio.registry.use-id", "contentId");
        return c;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
