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
 * <p>A lookup fails with {@link Unresolved} when the registry answered that the id does not exist,
 * is not an Avro schema, or is one dpclust does not read (recursive, or an array or map whose items
 * may take no bytes: a few bytes could claim billions of them): the record is dead-lettered. When
 * the registry cannot be asked ({@link #ATTEMPTS} attempts over about a second), {@link
 * RegistryUnavailable} fails the job instead, so whether a record counts never depends on which
 * schemas earlier records put in the cache.
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
                if (attempt == ATTEMPTS - 1) {
                    break;
                }
                try {
                    Thread.sleep(200L << attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new RegistryUnavailable(last.getMessage());
    }

    /**
     * The registry could not be asked (unreachable, failing, refusing the credentials) after {@link
     * #ATTEMPTS} attempts. Unchecked: it fails the job, which restarts from its checkpoint and
     * reads the record again. Dead-lettering instead would make whether a record counts depend on
     * whether an earlier record with the same schema id filled the cache before the outage.
     */
    public static final class RegistryUnavailable extends RuntimeException {
        RegistryUnavailable(String message) {
            super(message);
        }
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

    /**
     * Why dpclust does not read records of {@code s}, or null: a recursive schema (unbounded
     * nesting), or an array or map of items that may take no bytes (unbounded items per byte).
     */
    static String refusal(Schema s, java.util.Set<String> open) {
        switch (s.getType()) {
            case RECORD -> {
                if (!open.add(s.getFullName())) {
                    return "recursive record " + s.getFullName();
                }
                for (Schema.Field f : s.getFields()) {
                    String r = refusal(f.schema(), open);
                    if (r != null) {
                        return r;
                    }
                }
                open.remove(s.getFullName());
                return null;
            }
            case ARRAY, MAP -> {
                Schema items =
                        s.getType() == Schema.Type.ARRAY ? s.getElementType() : s.getValueType();
                if (s.getType() == Schema.Type.ARRAY && mayBeEmpty(items)) {
                    return "an array of "
                            + items.getType().getName()
                            + " items, which take no bytes";
                }
                return refusal(items, open);
            }
            case UNION -> {
                for (Schema b : s.getTypes()) {
                    String r = refusal(b, open);
                    if (r != null) {
                        return r;
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** Whether a value of {@code s} may be encoded in zero bytes. */
    private static boolean mayBeEmpty(Schema s) {
        return switch (s.getType()) {
            case NULL -> true;
            case FIXED -> s.getFixedSize() == 0;
            case RECORD -> s.getFields().stream().allMatch(f -> mayBeEmpty(f.schema()));
            default -> false; // numbers, strings, bytes, booleans, enums, unions: at least a byte
        };
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
                    "the schema registry refused the credentials (HTTP "
                            + r.statusCode()
                            + "): check "
                            + org.dpclust.config.KafkaConnection.REGISTRY_USER_INFO,
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
            Schema schema = new Schema.Parser().parse(body.path("schema").asText());
            String refused = refusal(schema, new java.util.HashSet<>());
            if (refused != null) {
                throw new Unresolved("schema id " + id + " is not read: " + refused, true);
            }
            return schema;
        } catch (IOException | SchemaParseException e) {
            throw new Unresolved("schema id " + id + " is not a readable Avro schema", true);
        }
    }
}
