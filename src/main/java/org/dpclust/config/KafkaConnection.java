package org.dpclust.config;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * How every Kafka client dpclust builds connects: the bootstrap servers and the user's client
 * properties ({@code kafka.properties} of the configuration, {@code --kafka-properties FILE}) —
 * security protocol, SASL, TLS, cloud IAM callback handlers, tuning. It is the one place where a
 * client's configuration is assembled ({@link #clientProperties}): the source, sink, admin, ledger
 * and budget readers and writers, {@code consume}, {@code dashboard} and {@code generate} all go
 * through it, so a property set once reaches every client.
 *
 * <p><b>Job-owned keys are refused.</b> Keys whose value the job's correctness depends on ({@link
 * #OWNED}: isolation level, transactional ids, idempotence and acks, serializers, the consumer
 * group and offsets, the bootstrap servers) cannot be set here: {@link #validate} fails naming the
 * key and the option that owns it. Every other user property wins over the job's default for that
 * client (e.g. {@code request.timeout.ms}).
 *
 * <p><b>Secrets.</b> Values may reference secrets instead of holding them, through Kafka's own
 * configuration providers, resolved inside each Kafka client when it is created: {@code
 * ${env:NAME}} ({@link EnvVarConfigProvider}), {@code ${file:/path/to/file.properties:key}} ({@link
 * FileConfigProvider}, one key of a properties file) and {@code ${dir:/path/to/dir:name}} ({@link
 * DirectoryConfigProvider}, the whole content of file {@code name}, e.g. a mounted Kubernetes
 * secret). Kafka's providers fit: they are the mechanism every Kafka client already has, they
 * resolve on the TaskManager when its client is created (the job graph, the Flink web UI and this
 * record only ever hold the reference), and Kafka's own configuration log masks resolved values of
 * PASSWORD-typed keys ({@code sasl.jaas.config}, {@code ssl.*.password}). So dpclust does not
 * resolve anything itself: when some value holds a reference and the user has not declared {@code
 * config.providers}, it declares {@code env}, {@code file} and {@code dir}; {@link #validate}
 * checks the form of each reference at load, {@link #requireResolvable} that each resolves at
 * start-up (Kafka would silently keep an unresolved reference as the literal value). Neither ever
 * puts a value into a message; {@link #describe} logs keys, not values.
 *
 * @param bootstrapServers the bootstrap servers (from {@code kafka.bootstrap_servers} or {@code
 *     --bootstrap-servers})
 * @param properties the user's client properties, validated (never null)
 */
public record KafkaConnection(String bootstrapServers, Map<String, String> properties)
        implements Serializable {

    /**
     * Keys the job owns, each with the option (or the reason) that owns it: refused in user
     * properties.
     */
    public static final Map<String, String> OWNED = owned();

    /** The providers declared when a value references one and the user declared none. */
    static final Map<String, Class<?>> DEFAULT_PROVIDERS = defaultProviders();

    /** Values safe to print: the rest are logged as keys only. */
    private static final Set<String> PUBLIC_VALUES =
            Set.of("security.protocol", "sasl.mechanism", "ssl.endpoint.identification.algorithm");

    private static Map<String, Class<?>> defaultProviders() {
        Map<String, Class<?>> m = new LinkedHashMap<>(); // declared in this order
        m.put("env", EnvVarConfigProvider.class);
        m.put("file", FileConfigProvider.class);
        m.put("dir", DirectoryConfigProvider.class);
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, String> owned() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bootstrap.servers", "set kafka.bootstrap_servers or --bootstrap-servers");
        m.put("group.id", "set kafka.group_id");
        m.put("transactional.id", "set kafka.transactional_id_prefix");
        m.put("transaction.timeout.ms", "set kafka.transaction_timeout");
        m.put("auto.offset.reset", "set kafka.starting_offsets");
        m.put("isolation.level", "dpclust always reads read_committed");
        m.put("enable.idempotence", "exactly-once writes need the idempotent producer");
        m.put("acks", "exactly-once writes need acks=all");
        m.put("enable.auto.commit", "offsets are committed with Flink checkpoints");
        for (String s : new String[] {"key", "value"}) {
            m.put(s + ".serializer", "dpclust writes Avro bytes");
            m.put(s + ".deserializer", "dpclust reads Avro bytes");
        }
        return Map.copyOf(m);
    }

    public KafkaConnection {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("Kafka bootstrap servers must be non-blank");
        }
        properties = Map.copyOf(validate("kafka.properties", properties));
    }

    /** A connection with no client properties (a PLAINTEXT broker such as the in-process one). */
    public static KafkaConnection plaintext(String bootstrapServers) {
        return new KafkaConnection(bootstrapServers, Map.of());
    }

    /** This connection to other servers, with the same properties. */
    public KafkaConnection withBootstrapServers(String servers) {
        return new KafkaConnection(servers, properties);
    }

    /** This connection with {@code more} added (a key of both: {@code more} wins). */
    public KafkaConnection withProperties(String option, Map<String, String> more) {
        Map<String, String> all = new TreeMap<>(properties);
        all.putAll(validate(option, more));
        return new KafkaConnection(bootstrapServers, all);
    }

    /**
     * Checks user client properties: no job-owned key ({@link #OWNED}), no blank key, and every
     * {@code ${provider:...}} reference well formed (a known provider; {@code file} and {@code dir}
     * with a path).
     *
     * @param option the option the properties come from, for messages ({@code kafka.properties},
     *     {@code --kafka-properties FILE})
     * @return the properties, sorted by key
     * @throws ConfigException naming {@code option.key}, never the value
     */
    public static Map<String, String> validate(String option, Map<String, String> properties) {
        Map<String, String> sorted = new TreeMap<>();
        if (properties == null) {
            return sorted;
        }
        boolean userProviders = properties.containsKey(AbstractConfig.CONFIG_PROVIDERS_CONFIG);
        Set<String> providers = declaredProviders(properties);
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey() == null ? "" : e.getKey().strip();
            if (key.isEmpty()) {
                throw new ConfigException(option, "a client property has an empty key");
            }
            String owner = OWNED.get(key);
            if (owner != null) {
                throw new ConfigException(
                        option + "." + key,
                        "'" + key + "' is owned by dpclust and cannot be set here (" + owner + ")");
            }
            if (e.getValue() == null) {
                throw new ConfigException(option + "." + key, "needs a value");
            }
            checkReferences(option + "." + key, e.getValue(), providers, userProviders);
            sorted.put(key, e.getValue());
        }
        return sorted;
    }

    private static Set<String> declaredProviders(Map<String, String> properties) {
        String declared = properties.get(AbstractConfig.CONFIG_PROVIDERS_CONFIG);
        if (declared == null) {
            return DEFAULT_PROVIDERS.keySet();
        }
        return Arrays.stream(declared.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    private static void checkReferences(
            String option, String value, Set<String> providers, boolean userProviders) {
        Matcher m = ConfigTransformer.DEFAULT_PATTERN.matcher(value);
        while (m.find()) {
            String provider = m.group(1);
            String path = m.group(3);
            String ref = m.group();
            if (!providers.contains(provider)) {
                throw new ConfigException(
                        option,
                        "references provider '"
                                + provider
                                + "', which is not declared (known: "
                                + String.join(", ", new TreeSet<>(providers))
                                + ")");
            }
            boolean builtIn = !userProviders; // the user's providers take their own syntax
            if (builtIn && provider.equals("env") && path != null) {
                throw new ConfigException(
                        option, "'" + ref + "': write an environment variable as ${env:NAME}");
            }
            if (builtIn && !provider.equals("env") && (path == null || path.isBlank())) {
                throw new ConfigException(
                        option,
                        "'"
                                + ref
                                + "' needs a path and a key: ${file:/path/file.properties:KEY}"
                                + " (one key of a properties file) or ${dir:/path/dir:FILE}"
                                + " (a whole file)");
            }
        }
    }

    /**
     * The configuration of one Kafka client: the client's own settings {@code job}, then the user's
     * properties over them, then the bootstrap servers (and the default config providers when a
     * value references one). Job-owned keys cannot collide: the user's are refused at load.
     */
    public Properties clientProperties(Map<String, ?> job) {
        Properties p = new Properties();
        job.forEach(p::put);
        properties.forEach(
                (k, v) -> {
                    if (!k.startsWith(REGISTRY_PREFIX)) { // the registry's, not a Kafka client's
                        p.put(k, v);
                    }
                });
        p.put("bootstrap.servers", bootstrapServers);
        boolean references =
                properties.values().stream()
                        .anyMatch(v -> ConfigTransformer.DEFAULT_PATTERN.matcher(v).find());
        if (references && !properties.containsKey(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
            addDefaultProviders(p);
        }
        return p;
    }

    private static void addDefaultProviders(Properties p) {
        p.put(AbstractConfig.CONFIG_PROVIDERS_CONFIG, String.join(",", DEFAULT_PROVIDERS.keySet()));
        DEFAULT_PROVIDERS.forEach(
                (alias, cls) ->
                        p.put(
                                AbstractConfig.CONFIG_PROVIDERS_CONFIG + "." + alias + ".class",
                                cls.getName()));
    }

    /** Client properties under this prefix are the schema registry's, not Kafka's. */
    public static final String REGISTRY_PREFIX = "schema.registry.";

    /** The schema registry's {@code user:password} (basic authentication), a client property. */
    public static final String REGISTRY_USER_INFO = REGISTRY_PREFIX + "basic.auth.user.info";

    /**
     * The value of client property {@code key} with its secret reference resolved as a Kafka client
     * would resolve it (environment, file, directory providers), or null if it is not set.
     */
    public String resolved(String key) {
        String v = properties.get(key);
        if (v == null || !ConfigTransformer.DEFAULT_PATTERN.matcher(v).find()) {
            return v;
        }
        Properties p = new Properties();
        p.put(key, v);
        if (properties.containsKey(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
            properties.forEach(
                    (k, x) -> {
                        if (k.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
                            p.put(k, x);
                        }
                    });
        } else {
            addDefaultProviders(p);
        }
        return String.valueOf(new AbstractConfig(new ConfigDef(), p, false).originals().get(key));
    }

    /**
     * Resolves every reference now, as a Kafka client would, and fails if one does not resolve (a
     * variable that is not set, a file or key that is missing): a client would silently use the
     * reference itself as the value. Run on the machine that starts the job; the TaskManagers
     * resolve again, in their own environment.
     *
     * @param option the option the properties come from, for messages
     * @throws ConfigException naming {@code option.key} and the reference, never a value
     */
    public void requireResolvable(String option) {
        Properties p = clientProperties(Map.of());
        properties.forEach(p::putIfAbsent); // the registry's properties are checked too
        if (!p.containsKey(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
            return;
        }
        Map<String, Object> resolved;
        try {
            resolved = new AbstractConfig(new ConfigDef(), p, false).originals();
        } catch (org.apache.kafka.common.config.ConfigException e) {
            throw new ConfigException(
                    option, "a secret reference cannot be read: " + e.getMessage());
        }
        for (String key : properties.keySet()) {
            Matcher m =
                    ConfigTransformer.DEFAULT_PATTERN.matcher(String.valueOf(resolved.get(key)));
            if (m.find()) {
                throw new ConfigException(
                        option + "." + key,
                        "'"
                                + m.group()
                                + "' does not resolve (an environment variable that is not set, or"
                                + " a missing file or key)");
            }
        }
    }

    /**
     * The client properties for a log line, in key order: keys, with the values of {@code
     * security.protocol}, {@code sasl.mechanism} and {@code ssl.endpoint.identification.algorithm}
     * only; "none" if there are none.
     */
    public String describe() {
        return describe(properties);
    }

    /** {@link #describe()} of {@code properties}. */
    static String describe(Map<String, String> properties) {
        if (properties.isEmpty()) {
            return "none";
        }
        return new TreeMap<>(properties)
                .entrySet().stream()
                        .map(
                                e ->
                                        PUBLIC_VALUES.contains(e.getKey())
                                                ? e.getKey() + "=" + e.getValue()
                                                : e.getKey())
                        .collect(Collectors.joining(", "));
    }

    /** Never the property values (which may be secrets): see {@link #describe()}. */
    @Override
    public String toString() {
        return "KafkaConnection[" + bootstrapServers + ", properties: " + describe() + "]";
    }
}
