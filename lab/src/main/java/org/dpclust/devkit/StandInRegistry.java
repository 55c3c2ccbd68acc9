package org.dpclust.devkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a schema registry, for tests and benchmarks only (never a deployment): the two
 * calls of Confluent's REST API that dpclust makes ({@code POST /subjects/<s>/versions} registering
 * a schema, {@code GET /schemas/ids/<id>} looking one up), on the JDK's HTTP server. It stands in
 * for the framing and look-up only; no registry semantics (compatibility, versions) are claimed.
 */
public final class StandInRegistry implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, String> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger(1);

    public StandInRegistry() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        int code = 404;
        Object body = Map.of("error_code", 40403, "message", "not found");
        if (ex.getRequestMethod().equals("POST") && path.matches("/subjects/[^/]+/versions")) {
            JsonNode req = JSON.readTree(ex.getRequestBody());
            String schema = req.path("schema").asText();
            int id = ids.computeIfAbsent(schema, s -> next.getAndIncrement());
            schemas.put(id, schema);
            code = 200;
            body = Map.of("id", id);
        } else if (ex.getRequestMethod().equals("GET") && path.matches("/schemas/ids/\\d+")) {
            String s = schemas.get(Integer.parseInt(path.substring(path.lastIndexOf('/') + 1)));
            if (s != null) {
                code = 200;
                body = Map.of("schema", s);
            }
        }
        byte[] out = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(code, out.length);
        ex.getResponseBody().write(out);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
