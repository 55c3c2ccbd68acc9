package org.dpclust.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Validates deploy/kubernetes/flinkdeployment.yaml against the {@code FlinkDeployment} CRD that the
 * Flink Kubernetes Operator publishes on Maven Central (in {@code flink-kubernetes-operator-api}, a
 * test dependency): the whole document against the CRD's OpenAPI schema, and no field that the API
 * server would silently prune (a field the schema does not declare, e.g. a misspelt {@code
 * upgradeMod}).
 *
 * <p>One known exception, asserted rather than skipped: the newest operator API on Maven Central is
 * 1.10.0, whose {@code flinkVersion} enum ends at {@code v1_20}; {@code v2_2} was added in operator
 * 1.13.0 (docs/deploy.md). Against a CRD without {@code v2_2} the test requires that the only
 * violation is that enum at {@code spec.flinkVersion}, and that the same manifest with the CRD's
 * newest version there validates cleanly. With a CRD that has {@code v2_2} it requires no violation
 * at all.
 */
class FlinkDeploymentCrdTest {
    private static final String CRD = "/META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
    private static final String FLINK_VERSION = "v2_2";

    private static JsonNode schemaNode;
    private static JsonSchema schema;
    private static String operatorVersion;
    private static JsonNode manifest;

    @BeforeAll
    static void load() throws IOException {
        JsonNode crd;
        try (InputStream in = FlinkDeploymentCrdTest.class.getResourceAsStream(CRD)) {
            assertNotNull(in, CRD + " on the test class path (flink-kubernetes-operator-api)");
            crd = DeploymentFiles.yaml(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        Properties pom = new Properties();
        try (InputStream in =
                FlinkDeploymentCrdTest.class.getResourceAsStream(
                        "/META-INF/maven/org.apache.flink/flink-kubernetes-operator-api/pom.properties")) {
            pom.load(in);
        }
        operatorVersion = pom.getProperty("version");
        manifest = DeploymentFiles.yaml(DeploymentFiles.FLINK_DEPLOYMENT);
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(apiVersion(manifest))) {
                schemaNode = v.path("schema").path("openAPIV3Schema");
            }
        }
        assertNotNull(schemaNode, "the CRD serves " + manifest.path("apiVersion").asText());
        schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schemaNode);
    }

    private static String apiVersion(JsonNode doc) {
        String[] gv = doc.path("apiVersion").asText().split("/");
        assertEquals("flink.apache.org", gv[0]);
        return gv[1];
    }

    private static List<String> violations(JsonNode doc) {
        List<String> out = new ArrayList<>();
        for (ValidationMessage m : schema.validate(doc)) {
            out.add(m.getInstanceLocation() + " " + m.getType() + ": " + m.getMessage());
        }
        return out;
    }

    private static List<String> flinkVersions() {
        List<String> out = new ArrayList<>();
        schemaNode
                .path("properties")
                .path("spec")
                .path("properties")
                .path("flinkVersion")
                .path("enum")
                .forEach(v -> out.add(v.asText()));
        return out;
    }

    @Test
    void theFlinkDeploymentValidatesAgainstTheOperatorsCrd() {
        assertEquals("FlinkDeployment", manifest.path("kind").asText());
        assertEquals(FLINK_VERSION, manifest.path("spec").path("flinkVersion").asText());
        List<String> known = flinkVersions();
        List<String> v = violations(manifest);
        if (known.contains(FLINK_VERSION)) {
            assertEquals(List.of(), v, "CRD of operator " + operatorVersion);
            return;
        }
        // the documented exception: this CRD predates Flink 2.2, and nothing else is wrong
        assertEquals(1, v.size(), "only flinkVersion may fail against operator " + operatorVersion);
        assertTrue(
                v.get(0).startsWith("$.spec.flinkVersion enum"),
                "the one violation is flinkVersion's enum: " + v.get(0));
        ObjectNode newest = DeploymentFiles.copy(manifest);
        ((ObjectNode) newest.get("spec")).put("flinkVersion", known.get(known.size() - 1));
        assertEquals(List.of(), violations(newest), "with " + known.get(known.size() - 1));
    }

    @Test
    void theSchemaCheckFindsAWrongValue() {
        ObjectNode doc = DeploymentFiles.copy(manifest);
        ((ObjectNode) doc.get("spec").get("job")).put("upgradeMode", "savepoints");
        ((ObjectNode) doc.get("spec").get("taskManager").get("resource")).put("cpu", "one");
        Set<String> paths = new TreeSet<>();
        for (String s : violations(doc)) {
            paths.add(s.substring(0, s.indexOf(' ')));
        }
        assertTrue(paths.contains("$.spec.job.upgradeMode"), paths.toString());
        assertTrue(paths.contains("$.spec.taskManager.resource.cpu"), paths.toString());
    }

    @Test
    void noFieldWouldBePrunedByTheApiServer() {
        assertEquals(List.of(), pruned(manifest));
        ObjectNode typo = DeploymentFiles.copy(manifest);
        ((ObjectNode) typo.get("spec").get("job")).put("upgradeMod", "savepoint");
        ((ObjectNode) typo.at("/spec/podTemplate/spec/containers/0")).put("enviroment", "x");
        assertEquals(
                List.of("spec.podTemplate.spec.containers[0].enviroment", "spec.job.upgradeMod"),
                pruned(typo));
    }

    /**
     * Fields of {@code doc} that the schema does not declare: a structural schema's API server
     * drops them without an error. {@code apiVersion}, {@code kind} and {@code metadata} (the API
     * server's own ObjectMeta) are every object's, whatever the CRD's schema declares.
     */
    static List<String> pruned(JsonNode doc) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!Set.of("apiVersion", "kind", "metadata").contains(e.getKey())) {
                JsonNode s = schemaNode.path("properties").get(e.getKey());
                if (s == null) {
                    out.add(e.getKey());
                } else {
                    pruned(s, e.getValue(), e.getKey(), out);
                }
            }
        }
        return out;
    }

    private static void pruned(JsonNode schema, JsonNode doc, String path, List<String> out) {
        if (doc.isArray() && schema.has("items")) {
            for (int i = 0; i < doc.size(); i++) {
                pruned(schema.get("items"), doc.get(i), path + "[" + i + "]", out);
            }
            return;
        }
        if (!doc.isObject()) {
            return;
        }
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = path + "." + e.getKey();
            if (properties.has(e.getKey())) {
                pruned(properties.get(e.getKey()), e.getValue(), p, out);
            } else if (additional != null && additional.isObject()) {
                pruned(additional, e.getValue(), p, out);
            } else if (!preserve) {
                out.add(p);
            }
        }
    }
}
