package org.dpclust.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the deployment kit's files (paths relative to the repository root, the tests' working
 * directory): YAML as Jackson trees, Flink's nested config.yaml flattened to its dotted keys.
 */
final class DeploymentFiles {
    static final Path FLINK_DEPLOYMENT = Path.of("deploy/kubernetes/flinkdeployment.yaml");
    static final Path CONFIG_MAP = Path.of("deploy/kubernetes/configmap.yaml");
    static final Path SECRET = Path.of("deploy/kubernetes/secret.example.yaml");
    static final Path FLINK_CONF = Path.of("flink-conf/config.yaml");
    static final Path DOCKERFILE = Path.of("Dockerfile");
    static final Path COMPOSE = Path.of("docker-compose.yml");

    private static final YAMLMapper YAML = new YAMLMapper();

    private DeploymentFiles() {}

    static JsonNode yaml(Path p) {
        try {
            return YAML.readTree(p.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A deep copy of {@code node} as an object, for tests that change one field. */
    static ObjectNode copy(JsonNode node) {
        return (ObjectNode) node.deepCopy();
    }

    /**
     * Flink's config.yaml as Flink reads it: nested maps flattened to dotted keys, scalars as text.
     */
    static Map<String, String> flinkConf(Path p) {
        Map<String, String> out = new TreeMap<>();
        flatten("", yaml(p), out);
        return out;
    }

    private static void flatten(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(
                        prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(),
                        e.getValue(),
                        out);
            }
        } else {
            out.put(prefix, n.asText());
        }
    }
}
