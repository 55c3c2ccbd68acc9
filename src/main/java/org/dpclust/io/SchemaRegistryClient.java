package org.dpclust.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Looks Avro writer schemas up by id in a schema registry speaking Confluent's REST API ({@code GET
 * <url>/schemas/ids/<id>}; Apicurio Registry serves it under {@code /apis/ccompat/v7}), with HTTP
 * basic authentication when credentials are given, and caches them (at most {@link #MAX_CACHED}
 * schemas; an id's schema never changes in a registry). Written here rather than taken from
 * Confluent's client, which is not on Maven Central, or Apicurio's, whose dependency tree would
 * enter the job jar for one GET request.
 *
 * <p>A lookup fails with {@link Unresolved}: {@code permanent} when the registry answered that the
 * id does not exist or is not an Avro schema (the record is dead-lettered at once), else after
 * {@link #ATTEMPTS} attempts over about a second each (registry unreachable or failing): the record
 * is dead-lettered too, so a registry outage never blocks a partition or moves time.
 */
public final class SchemaRegistryClient {
    public static final int MAX_CACHED = 10_000;
    static final int ATTEMPTS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String url;
    private final String authorization;
    private final HttpClient http;
    private final Map<Integer, Schema> cache =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Integer, Schema> e) {
                    return size() > MAX_CACHED;
                }
            };

    /**
     * @param url the registry's base URL (e.g. {@code http://registry:8080/apis/ccompat/v7})
     * @param userInfo {@code user:password} for basic authentication, or null
     */
    public SchemaRegistryClient(String url, String userInfo) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.authorization =
                userInfo == null
                        ? null
                        : "Basic "
                                + Base64.getEncoder()
                                        .encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** Why a schema id could not be resolved. */
    public static final class Unresolved extends Exception {
        private final boolean permanent;

        Unresolved(String message, boolean permanent) {
            super(message, null, false, false);
            this.permanent = permanent;
        }

        public boolean permanent() {
            return permanent;
        }
    }

    /** The writer schema registered under {@code id}. */
    public synchronized Schema schema(int id) throws Unresolved {
        Schema s = cache.get(id);
        if (s != null) {
            return s;
        }
        Unresolved last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                s = fetch(id);
                cache.put(id, s);
                return s;
            } catch (Unresolved e) {
                if (e.permanent()) {
                    throw e;
                }
                last = e;
                try {
                    Thread.sleep(200L << attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw last;
    }

    /**
     * Registers {@code schema} under {@code subject} ({@code POST
     * <url>/subjects/<subject>/versions}) and returns its id (the existing id when it is registered
     * already): how {@code dpclust generate} writes the registry format.
     *
     * @throws IOException if the registry refuses or cannot be reached
     */
    public int register(String subject, Schema schema) throws IOException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(
                                URI.create(
                                        url
                                                + "/subjects/"
                                                + java.net.URLEncoder.encode(
                                                        subject, StandardCharsets.UTF_8)
                                                + "/versions"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        String body = JSON.writeValueAsString(Map.of("schema", schema.toString()));
        HttpResponse<String> r;
        try {
            r =
                    http.send(
                            b.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (r.statusCode() != 200) {
            throw new IOException(
                    "the schema registry at "
                            + url
                            + " refused to register "
                            + subject
                            + ": HTTP "
                            + r.statusCode());
        }
        int id = JSON.readTree(r.body()).path("id").asInt(-1);
        if (id < 0) {
            throw new IOException("the schema registry at " + url + " returned no id");
        }
        synchronized (this) {
            cache.put(id, schema);
        }
        return id;
    }

    private Schema fetch(int id) throws Unresolved {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url + "/schemas/ids/" + id))
                        .timeout(Duration.ofSeconds(3))
                        .header(
                                "Accept",
                                "application/vnd.schemaregistry.v1+json, application/json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpResponse<String> r;
        try {
            r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Unresolved(
                    "schema registry "
                            + url
                            + " unreachable ("
                            + e.getClass().getSimpleName()
                            + ")",
                    false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unresolved("interrupted", false);
        }
        if (r.statusCode() == 404) {
            throw new Unresolved("schema id " + id + " is not in the registry", true);
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new Unresolved(
                    "the schema registry refused the credentials (HTTP " + r.statusCode() + ")",
                    false);
        }
        if (r.statusCode() != 200) {
            throw new Unresolved("the schema registry answered HTTP " + r.statusCode(), false);
        }
        try {
            JsonNode body = JSON.readTree(r.body());
            String type = body.path("schemaType").asText("AVRO");
            if (!type.equals("AVRO")) {
                throw new Unresolved(
                        "schema id " + id + " is a " + type + " schema, not Avro", true);
            }
            return new Schema.Parser().parse(body.path("schema").asText());
        } catch (IOException | SchemaParseException e) {
            throw new Unresolved("schema id " + id + " is not a readable Avro schema", true);
        }
    }
}
