package org.dpclust.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.launch.StreamCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The deployment kit's files agree with each other and with the job: the FlinkDeployment takes the
 * secret from the example Secret (as an environment variable, never as a job argument), the job's
 * {@code --config} from the ConfigMap (a configuration the job accepts), runs the jar where the
 * Dockerfile puts it, and exposes the port the Prometheus reporter serves; flink-conf/config.yaml
 * (docker-compose) and the FlinkDeployment pin the same {@code pipeline.max-parallelism} and enable
 * the same reporter.
 */
class DeploymentKitTest {
    private static final String PROM_FACTORY =
            "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

    private final JsonNode deployment = DeploymentFiles.yaml(DeploymentFiles.FLINK_DEPLOYMENT);
    private final JsonNode spec = deployment.path("spec");
    private final JsonNode container = spec.at("/podTemplate/spec/containers/0");
    private final Map<String, String> flinkConf =
            DeploymentFiles.flinkConf(DeploymentFiles.FLINK_CONF);

    private static String conf(JsonNode spec, String key) {
        JsonNode v = spec.path("flinkConfiguration").get(key);
        assertNotNull(v, "flinkConfiguration." + key);
        return v.asText();
    }

    @Test
    void theSecretComesFromTheSecretAsAnEnvironmentVariableOnly() {
        JsonNode secret = DeploymentFiles.yaml(DeploymentFiles.SECRET);
        assertEquals("Secret", secret.path("kind").asText());
        JsonNode env = null;
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(SecretSource.ENV)) {
                env = e;
            }
        }
        assertNotNull(env, "flink-main-container has env " + SecretSource.ENV);
        JsonNode ref = env.at("/valueFrom/secretKeyRef");
        assertEquals(secret.at("/metadata/name").asText(), ref.path("name").asText());
        assertTrue(secret.path("stringData").has(ref.path("key").asText()), "the key exists");
        assertFalse(env.has("value"), "no literal secret value in the manifest");
        assertEquals("flink-main-container", container.path("name").asText());
        for (JsonNode arg : spec.at("/job/args")) {
            assertFalse(arg.asText().startsWith("--secret"), "no secret option: " + arg);
        }
        // the example value cannot be used by mistake: the job refuses it (not hex)
        String example = secret.path("stringData").path(ref.path("key").asText()).asText();
        assertFalse(example.matches("[0-9a-fA-F]{32,}"), "the example secret is a placeholder");
    }

    @Test
    void theJobReadsTheConfigMapsConfigurationWhichTheJobAccepts() {
        JsonNode cm = DeploymentFiles.yaml(DeploymentFiles.CONFIG_MAP);
        String name = cm.at("/metadata/name").asText();
        String mountPath = null;
        for (JsonNode v : spec.at("/podTemplate/spec/volumes")) {
            if (v.at("/configMap/name").asText().equals(name)) {
                for (JsonNode m : container.path("volumeMounts")) {
                    if (m.path("name").asText().equals(v.path("name").asText())) {
                        mountPath = m.path("mountPath").asText();
                    }
                }
            }
        }
        assertNotNull(mountPath, "the ConfigMap " + name + " is mounted");
        List<String> args = new ArrayList<>();
        spec.at("/job/args").forEach(a -> args.add(a.asText()));
        String file = args.get(args.indexOf("--config") + 1);
        assertTrue(file.startsWith(mountPath + "/"), file);
        String key = file.substring(mountPath.length() + 1);
        DpclustConfig c = ConfigLoader.parse(cm.path("data").path(key).asText());
        c.job().requireStreamingSchedule(); // what the streaming command checks before anything
        // else
        assertEquals(0, c.job().parallelism(), "the FlinkDeployment's job.parallelism decides");
        assertTrue(spec.at("/job/parallelism").asInt() > 0);
    }

    @Test
    void theEntryClassIsTheStreamingCommandAndAcceptsTheArguments() throws Exception {
        Class<?> entry = Class.forName(spec.at("/job/entryClass").asText());
        Method main = entry.getMethod("main", String[].class);
        assertTrue(Modifier.isStatic(main.getModifiers()), entry + ".main is static");
        assertEquals(StreamCommand.class, entry, "the jar's streaming entry point");
        List<String> args = new ArrayList<>();
        spec.at("/job/args").forEach(a -> args.add(a.asText()));
        // picocli parses them as the command would (unknown options would throw here)
        new CommandLine(new StreamCommand()).parseArgs(args.toArray(String[]::new));
    }

    @Test
    void applicationModeWithSavepointUpgradesRunsTheImagesJar() {
        assertEquals("savepoint", spec.at("/job/upgradeMode").asText());
        assertEquals("false", conf(spec, "kubernetes.operator.job.drain-on-savepoint-deletion"));
        assertEquals("local://" + Dockerfile.jobJarDestination(), spec.at("/job/jarURI").asText());
        assertEquals("kubernetes", conf(spec, "high-availability.type"));
        for (String k :
                List.of(
                        "execution.checkpointing.dir",
                        "execution.checkpointing.savepoint-dir",
                        "high-availability.storageDir")) {
            assertTrue(conf(spec, k).contains("CHANGE-ME"), k + " is a marked placeholder");
        }
    }

    @Test
    void prometheusAndMaxParallelismAreTheSameInComposeAndKubernetes() throws Exception {
        assertEquals(PROM_FACTORY, flinkConf.get("metrics.reporter.prom.factory.class"));
        assertEquals(PROM_FACTORY, conf(spec, "metrics.reporter.prom.factory.class"));
        Class.forName(PROM_FACTORY); // the reporter that MetricsScrapeIT runs
        // stream ids as label values as they are (the reporter rewrites a-b to a_b by default)
        assertEquals("false", flinkConf.get("metrics.reporter.prom.filterLabelValueCharacters"));
        assertEquals("false", conf(spec, "metrics.reporter.prom.filterLabelValueCharacters"));
        String port = flinkConf.get("metrics.reporter.prom.port");
        assertEquals(port, conf(spec, "metrics.reporter.prom.port"));
        assertEquals(port, container.at("/ports/0/containerPort").asText());
        assertEquals(
                port,
                deployment
                        .at("/spec/podTemplate/metadata/annotations/prometheus.io~1port")
                        .asText());
        assertTrue(Dockerfile.parse(DeploymentFiles.DOCKERFILE).exposed().contains(port));
        JsonNode compose = DeploymentFiles.yaml(DeploymentFiles.COMPOSE);
        for (String service : List.of("jobmanager", "taskmanager")) {
            boolean published = false;
            for (JsonNode p : compose.at("/services/" + service + "/ports")) {
                published |= p.asText().endsWith(":" + port);
            }
            assertTrue(published, service + " publishes the metrics port");
        }

        String pinned = flinkConf.get("pipeline.max-parallelism");
        assertNotNull(pinned, "flink-conf/config.yaml pins pipeline.max-parallelism");
        assertEquals(pinned, conf(spec, "pipeline.max-parallelism"));
        // what docs/operations.md says of Flink's default next to the pinned value
        assertEquals(128, Integer.parseInt(pinned));
        assertEquals(128, KeyGroupRangeAssignment.computeDefaultMaxParallelism(85));
        assertEquals(256, KeyGroupRangeAssignment.computeDefaultMaxParallelism(86));
    }

    /**
     * The Grafana board shows every dead-letter reason the job counts, and names its data source
     * through a variable (file or sidecar provisioning cannot fill an import-time input).
     */
    @Test
    void theDashboardShowsEveryRejectionReasonThroughADataSourceVariable() throws Exception {
        String json = Files.readString(Path.of("deploy/grafana/dpclust-dashboard.json"));
        for (String reason : org.dpclust.window.Rejections.ALL) {
            assertTrue(
                    json.contains("dpclust_rejected_" + reason + "{"),
                    "the dashboard queries rejected_" + reason);
            assertTrue(
                    Files.readString(Path.of("docs/deploy.md"))
                            .contains("`rejected_" + reason + "`"),
                    "docs/deploy.md lists rejected_" + reason);
        }
        assertFalse(json.contains("${DS_"), "no import-time data source input");
        JsonNode vars =
                DeploymentFiles.yaml(Path.of("deploy/grafana/dpclust-dashboard.json"))
                        .at("/templating/list");
        boolean datasource = false;
        for (JsonNode v : vars) {
            datasource |= v.path("type").asText().equals("datasource");
        }
        assertTrue(datasource, "a datasource variable");
    }

    /** The PodMonitor selects the FlinkDeployment's pods and scrapes its named metrics port. */
    @Test
    void thePodMonitorScrapesTheDeploymentsMetricsPort() {
        JsonNode monitor = DeploymentFiles.yaml(Path.of("deploy/kubernetes/podmonitor.yaml"));
        assertEquals("PodMonitor", monitor.path("kind").asText());
        assertEquals(
                deployment.at("/metadata/name").asText(),
                monitor.at("/spec/selector/matchLabels/app").asText(),
                "the operator labels the pods app=<deployment name>");
        assertEquals(
                container.at("/ports/0/name").asText(),
                monitor.at("/spec/podMetricsEndpoints/0/port").asText());
        assertEquals("/metrics", monitor.at("/spec/podMetricsEndpoints/0/path").asText());
    }

    /**
     * Compose gives the secret to every JVM that runs the job's code (the operators load it on the
     * TaskManager; without it the job fails there), and keeps Kafka's log directory, the budget
     * topic with it, on the kafka-data volume.
     */
    @Test
    void composeGivesTheSecretToTheFlinkJvmsAndKeepsKafkasLogOnItsVolume() {
        JsonNode compose = DeploymentFiles.yaml(DeploymentFiles.COMPOSE);
        for (String service : List.of("jobmanager", "taskmanager", "submit")) {
            assertTrue(
                    compose.at("/services/" + service + "/environment/DPCLUST_SECRET")
                            .asText()
                            .startsWith("${DPCLUST_SECRET"),
                    service + " has DPCLUST_SECRET");
        }
        String logDirs = compose.at("/services/kafka/environment/KAFKA_LOG_DIRS").asText();
        boolean onVolume = false;
        for (JsonNode v : compose.at("/services/kafka/volumes")) {
            onVolume |= v.asText().equals("kafka-data:" + logDirs);
        }
        assertTrue(onVolume, "KAFKA_LOG_DIRS " + logDirs + " is the kafka-data volume");
    }

    /**
     * Compose gives Flink its settings the way the image expects them: FLINK_PROPERTIES, the same
     * settings as flink-conf/config.yaml, for every service that runs Flink; nothing is mounted
     * over the image's conf/ (its entrypoint rewrites conf/config.yaml at start).
     */
    @Test
    void composeGivesFlinkTheSettingsOfFlinkConfThroughFlinkProperties() {
        ComposeFile compose =
                ComposeFile.load(
                        DeploymentFiles.COMPOSE, Map.of("DPCLUST_SECRET", "ab".repeat(16)));
        Map<String, String> expected = DeploymentFiles.flinkConf(DeploymentFiles.FLINK_CONF);
        for (String service : List.of("jobmanager", "taskmanager", "submit")) {
            Map<String, String> props =
                    ComposeFile.flinkProperties(
                            compose.environment(service).getOrDefault("FLINK_PROPERTIES", ""));
            assertEquals(expected, new java.util.TreeMap<>(props), service + "'s FLINK_PROPERTIES");
            for (String target : compose.mounts(service).keySet()) {
                assertFalse(target.startsWith("/opt/flink/conf"), service + " mounts " + target);
            }
        }
    }

    /**
     * Every named volume a Flink JVM writes is handed to the image's user (uid 9999) before the
     * JobManager and the TaskManager start: Docker creates a new volume's directory owned by root.
     */
    @Test
    void composeHandsFlinksVolumesToTheFlinkUserBeforeFlinkStarts() {
        ComposeFile compose =
                ComposeFile.load(
                        DeploymentFiles.COMPOSE, Map.of("DPCLUST_SECRET", "ab".repeat(16)));
        JsonNode init = compose.service("flink-volumes");
        assertEquals("0:0", init.path("user").asText(), "the init service runs as root");
        String script = init.path("entrypoint").get(2).asText();
        Map<String, String> initMounts = compose.mounts("flink-volumes");
        for (String service : List.of("jobmanager", "taskmanager")) {
            compose.mounts(service)
                    .forEach(
                            (target, source) -> {
                                if (!source.startsWith("volume:")) {
                                    return;
                                }
                                assertEquals(source, initMounts.get(target), target);
                                List<String> words = List.of(script.split(" "));
                                assertEquals(List.of("chown", "flink:flink"), words.subList(0, 2));
                                assertTrue(
                                        words.subList(2, words.size()).contains(target),
                                        "flink-volumes chowns " + target + ": " + script);
                            });
        }
        assertEquals(
                "service_completed_successfully",
                compose.service("jobmanager").at("/depends_on/flink-volumes/condition").asText());
        assertEquals(
                "service_healthy",
                compose.service("taskmanager").at("/depends_on/jobmanager/condition").asText(),
                "the TaskManager starts after the JobManager, hence after flink-volumes");
    }
}
