package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.deploy.ComposeFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml's services run as real processes on this machine (there is no Docker engine
 * here): the JobManager and TaskManager JVMs get exactly their service's environment and the
 * settings of its FLINK_PROPERTIES (as the image's entrypoint writes them into conf/config.yaml);
 * {@code submit}, {@code generator} and {@code consumer} run their command lines with bash, with
 * {@code flink} and {@code java} on PATH as in their images. The translation is only what the
 * containers' network and volumes give: service names and ports to this machine's loopback
 * addresses and free ports, container paths to the files and directories they mount. The run passes
 * when the consumer service prints releases of both streams — which needs the secret on the
 * TaskManager (the operators load it there; no child inherits one from the test's environment) and
 * the shipped dpclust.yaml's schedule.
 *
 * <p>Not reproduced: the image's own default config.yaml and its entrypoint script (the settings go
 * in as dynamic properties, the same for the JobManager and the TaskManager; DeploymentKitTest
 * checks submit's are equal, which the client here does not use), and the volumes' ownership
 * (processes here run as the test's user; DeploymentKitTest checks that flink-volumes hands them to
 * uid 9999 before Flink starts).
 */
@Tag("cluster")
class ComposeServicesIT {
    private static final String SECRET = "5a0f".repeat(16);

    @Test
    void theComposeServicesReleaseAsRealProcesses() throws Exception {
        assertTrue(Files.exists(Path.of("target", "dpclust-job.jar")), "run after `mvn package`");
        ComposeFile compose =
                ComposeFile.load(Path.of("docker-compose.yml"), Map.of("DPCLUST_SECRET", SECRET));
        try (RealCluster cluster = new RealCluster()) {
            cluster.startKafka();
            Path volumes = RealCluster.HOME.resolve("volumes");
            // what compose's network gives: service names and container ports on this machine
            String rest = cluster.restUrl().substring("http://".length());
            Map<String, String> network = new LinkedHashMap<>();
            network.put("kafka:9092", cluster.bootstrapServers());
            network.put("jobmanager:8081", rest);

            Map<String, String> settings =
                    ComposeFile.flinkProperties(
                            compose.environment("jobmanager").get("FLINK_PROPERTIES"));
            assertEquals(
                    settings,
                    ComposeFile.flinkProperties(
                            compose.environment("taskmanager").get("FLINK_PROPERTIES")),
                    "one Flink configuration for the JobManager and the TaskManager");
            Map<String, String> local = new TreeMap<>(settings);
            local.replaceAll((k, v) -> onHost(v, compose, "jobmanager", volumes));
            local.put("jobmanager.rpc.address", "127.0.0.1");
            local.put("jobmanager.rpc.port", Integer.toString(RealCluster.freePort()));
            local.put("jobmanager.bind-host", "127.0.0.1");
            local.put("taskmanager.bind-host", "127.0.0.1");
            local.put("taskmanager.host", "127.0.0.1");
            local.put("rest.address", "127.0.0.1");
            local.put("rest.bind-address", "127.0.0.1");
            local.put("rest.port", rest.substring(rest.lastIndexOf(':') + 1));
            cluster.startFlink(
                    local,
                    withoutFlinkProperties(compose, "jobmanager"),
                    withoutFlinkProperties(compose, "taskmanager"));

            Path bin = cluster.binDirectory();
            Process submit =
                    cluster.runShell(
                            "compose-submit",
                            command(compose, "submit", network, volumes),
                            bin,
                            withoutFlinkProperties(compose, "submit"));
            RealCluster.awaitExit(submit, "compose-submit", Duration.ofSeconds(180));
            cluster.runShell(
                    "compose-generator",
                    command(compose, "generator", network, volumes),
                    bin,
                    compose.environment("generator"));
            cluster.runShell(
                    "compose-consumer",
                    command(compose, "consumer", network, volumes),
                    bin,
                    compose.environment("consumer"));
            Map<String, Integer> releases = new TreeMap<>();
            RealCluster.await(
                    "releases of both streams from the consumer service",
                    Duration.ofSeconds(240),
                    () -> {
                        releases.clear();
                        releases.putAll(releasesPrinted());
                        return releases.size() == 2;
                    });
            assertEquals(java.util.Set.of("sensors-2d", "fleet-3d"), releases.keySet());
        }
    }

    /** The service's environment without FLINK_PROPERTIES (applied as settings instead). */
    private static Map<String, String> withoutFlinkProperties(ComposeFile compose, String service) {
        Map<String, String> env = new LinkedHashMap<>(compose.environment(service));
        env.remove("FLINK_PROPERTIES");
        return env;
    }

    /**
     * A container path in {@code text} (a file:// URI or a path) replaced by its mount's source.
     */
    private static String onHost(String text, ComposeFile compose, String service, Path volumes) {
        String out = text;
        for (Map.Entry<String, String> m : compose.mounts(service).entrySet()) {
            out = out.replace(m.getKey(), source(m.getValue(), volumes).toString());
        }
        return out;
    }

    private static Path source(String mount, Path volumes) {
        try {
            if (mount.startsWith("volume:")) {
                return Files.createDirectories(
                        volumes.resolve(mount.substring("volume:".length())));
            }
            return Path.of(mount).toAbsolutePath().normalize();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The service's command with container paths replaced by its mounts' sources and service
     * addresses by this machine's; a mounted file that names a service address (dpclust.yaml names
     * kafka:9092) is given as a copy with the address replaced.
     */
    private static String command(
            ComposeFile compose, String service, Map<String, String> network, Path volumes)
            throws java.io.IOException {
        String cmd = compose.command(service);
        for (Map.Entry<String, String> m : compose.mounts(service).entrySet()) {
            Path src = source(m.getValue(), volumes);
            if (Files.isRegularFile(src) && src.toString().endsWith(".yaml")) {
                String text = Files.readString(src);
                for (Map.Entry<String, String> n : network.entrySet()) {
                    text = text.replace(n.getKey(), n.getValue());
                }
                src = Files.writeString(volumes.resolve(service + "-" + src.getFileName()), text);
            }
            cmd = cmd.replace(m.getKey(), src.toString());
        }
        for (Map.Entry<String, String> n : network.entrySet()) {
            cmd = cmd.replace(n.getKey(), n.getValue());
        }
        return cmd;
    }

    /** Releases per stream in the consumer service's output so far. */
    private static Map<String, Integer> releasesPrinted() {
        Map<String, Integer> out = new TreeMap<>();
        ObjectMapper json = new ObjectMapper();
        try {
            for (String line : RealCluster.log("compose-consumer").split("\n")) {
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonNode r = json.readTree(line);
                if (r.has("stream_id") && r.has("window_start")) {
                    out.merge(r.get("stream_id").asText(), 1, Integer::sum);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }
}
