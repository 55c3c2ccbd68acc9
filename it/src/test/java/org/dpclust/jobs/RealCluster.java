package org.dpclust.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka broker and a standalone Flink session cluster as separate JVMs on the loopback interface,
 * started from Maven Central jars (the classpaths {@code maven-dependency-plugin} writes to
 * target/kafka.classpath and target/flink.classpath in pre-integration-test), as docs/operations.md
 * describes. Every child JVM has an explicit heap, logs to a file under target/real-cluster/ and is
 * destroyed by {@link #close} (and by a shutdown hook if the test JVM dies first).
 */
final class RealCluster implements AutoCloseable {
    static final Path TARGET = Path.of("target").toAbsolutePath();
    static final Path HOME = TARGET.resolve("real-cluster");

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<Process> children = new CopyOnWriteArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String kafkaClasspath;
    private final String flinkClasspath;
    private final Path flinkConf;
    private final int brokerPort;
    private final int restPort;
    private Process taskManager;
    private Map<String, String> taskManagerEnv = Map.of();
    private int taskManagers;
    private Process kafka;
    private Path kafkaProps;
    private int kafkaStarts;

    RealCluster() throws IOException {
        kafkaClasspath = classpath("kafka.classpath");
        flinkClasspath = classpath("flink.classpath");
        deleteRecursively(HOME);
        Files.createDirectories(HOME);
        brokerPort = freePort();
        restPort = freePort();
        flinkConf = HOME.resolve("flink-conf");
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> children.forEach(Process::destroyForcibly)));
    }

    private static String classpath(String file) throws IOException {
        Path p = TARGET.resolve(file);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(
                    p
                            + " is missing: run through `mvn verify` (maven-dependency-plugin "
                            + "writes it in pre-integration-test)");
        }
        return Files.readString(p).trim();
    }

    String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    Path flinkConf() {
        return flinkConf;
    }

    /**
     * KRaft, combined broker and controller, one node: format the storage, then run {@code
     * kafka.Kafka}.
     */
    void startKafka() throws Exception {
        int controllerPort = freePort();
        Path props = HOME.resolve("server.properties");
        Files.writeString(
                props,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                        "listeners=PLAINTEXT://127.0.0.1:"
                                + brokerPort
                                + ",CONTROLLER://127.0.0.1:"
                                + controllerPort,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                        "log.dirs=" + HOME.resolve("kafka-data"),
                        "num.partitions=1",
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "transaction.state.log.num.partitions=1",
                        "transaction.max.timeout.ms=900000",
                        "group.initial.rebalance.delay.ms=0",
                        ""));
        Path log4j = log4jConfig();
        Process format =
                start(
                        "kafka-format",
                        kafkaClasspath,
                        "128m",
                        List.of("-Dlog4j.configurationFile=" + log4j),
                        "kafka.tools.StorageTool",
                        List.of(
                                "format",
                                "-t",
                                Uuid.randomUuid().toString(),
                                "-c",
                                props.toString()),
                        Map.of());
        awaitExit(format, "kafka-format", Duration.ofSeconds(60));
        kafkaProps = props;
        startKafkaProcess();
    }

    /**
     * Starts the broker JVM on the formatted data directory and the same ports, and waits until it
     * serves requests.
     */
    private void startKafkaProcess() throws Exception {
        kafkaStarts++;
        kafka =
                start(
                        kafkaStarts == 1 ? "kafka" : "kafka-" + kafkaStarts,
                        kafkaClasspath,
                        "384m",
                        List.of("-Dlog4j.configurationFile=" + log4jConfig(), "-XX:+UseSerialGC"),
                        "kafka.Kafka",
                        List.of(kafkaProps.toString()),
                        Map.of());
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        try (Admin admin = Admin.create(p)) {
            await(
                    "the Kafka broker to serve requests",
                    Duration.ofSeconds(60),
                    () -> {
                        try {
                            return !admin.describeCluster()
                                    .nodes()
                                    .get(3, TimeUnit.SECONDS)
                                    .isEmpty();
                        } catch (Exception e) {
                            return false;
                        }
                    });
        }
    }

    /**
     * Stops the broker JVM (SIGTERM: a controlled shutdown that flushes its logs, as an operator's
     * restart does) and waits for it to exit.
     */
    void stopKafka() throws InterruptedException {
        kafka.destroy();
        if (!kafka.waitFor(60, TimeUnit.SECONDS)) {
            kafka.destroyForcibly();
            throw new IllegalStateException("the Kafka broker did not stop within 60 s");
        }
        children.remove(kafka);
    }

    /** Starts the broker again on the same data directory and ports after {@link #stopKafka}. */
    void restartKafka() throws Exception {
        startKafkaProcess();
    }

    /**
     * Writes the cluster's config.yaml (Flink 2.x format): checkpointing every second, exactly
     * once, RocksDB with checkpoints under target/, fixed-delay restarts, fast heartbeats so a
     * killed TaskManager is noticed in seconds; then starts the JobManager and one TaskManager and
     * waits for its slots.
     */
    void startFlink() throws Exception {
        Files.createDirectories(flinkConf);
        Path checkpoints = HOME.resolve("checkpoints");
        Path tmp = HOME.resolve("tmp");
        Files.createDirectories(tmp);
        Files.writeString(
                flinkConf.resolve("config.yaml"),
                """
                jobmanager:
                  rpc:
                    address: 127.0.0.1
                    port: %d
                  bind-host: 127.0.0.1
                  memory:
                    process:
                      size: 800m
                taskmanager:
                  host: 127.0.0.1
                  bind-host: 127.0.0.1
                  numberOfTaskSlots: 2
                  memory:
                    process:
                      size: 1024m
                    managed:
                      size: 64m
                    network:
                      min: 32m
                      max: 32m
                rest:
                  address: 127.0.0.1
                  bind-address: 127.0.0.1
                  port: %d
                parallelism:
                  default: 1
                heartbeat:
                  interval: 1000
                  timeout: 6000
                io:
                  tmp:
                    dirs: %s
                execution:
                  checkpointing:
                    interval: 1s
                    mode: EXACTLY_ONCE
                    dir: %s
                state:
                  backend:
                    type: rocksdb
                    incremental: true
                restart-strategy:
                  type: fixed-delay
                  fixed-delay:
                    attempts: 40
                    delay: 1s
                """
                        .formatted(freePort(), restPort, tmp, checkpoints.toUri()));
        startFlinkProcesses(Map.of(), Map.of());
    }

    /**
     * Writes {@code settings} (flat Flink keys, as a container's FLINK_PROPERTIES gives them) as
     * the cluster's config.yaml, then starts the JobManager and one TaskManager with these
     * environments (each JVM's Prometheus reporter, if configured, on a port of its own) and waits
     * for its slots.
     */
    void startFlink(
            Map<String, String> settings,
            Map<String, String> jobManagerEnv,
            Map<String, String> taskManagerEnv)
            throws Exception {
        Files.createDirectories(flinkConf);
        StringBuilder yaml = new StringBuilder();
        settings.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(flinkConf.resolve("config.yaml"), yaml.toString());
        startFlinkProcesses(jobManagerEnv, taskManagerEnv);
    }

    private void startFlinkProcesses(
            Map<String, String> jobManagerEnv, Map<String, String> taskManagerEnv)
            throws Exception {
        this.taskManagerEnv = taskManagerEnv;
        Files.copy(
                log4jConfig(),
                flinkConf.resolve("log4j-console.properties"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<String> jm = resourceParams("GET_JM_RESOURCE_PARAMS");
        List<String> jmArgs =
                new ArrayList<>(
                        List.of("--configDir", flinkConf.toString(), "--executionMode", "cluster"));
        jmArgs.addAll(dynamicProperties(jm.get(1)));
        jmArgs.addAll(List.of("-D", "metrics.reporter.prom.port=" + freePort()));
        start(
                "jobmanager",
                flinkClasspath,
                null,
                flinkJvmOptions(jm.get(0), "jobmanager"),
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                jmArgs,
                jobManagerEnv);
        await("the JobManager's REST API", Duration.ofSeconds(90), () -> rest("/overview") != null);
        startTaskManager();
    }

    /**
     * Starts a TaskManager JVM and waits until the JobManager lists it (a TaskManager id it did not
     * list before).
     */
    void startTaskManager() throws Exception {
        java.util.Set<String> before = taskManagerIds();
        List<String> tm = resourceParams("GET_TM_RESOURCE_PARAMS");
        List<String> args = new ArrayList<>(List.of("--configDir", flinkConf.toString()));
        args.addAll(dynamicProperties(tm.get(1)));
        args.addAll(List.of("-D", "metrics.reporter.prom.port=" + freePort()));
        taskManagers++;
        String name = "taskmanager-" + taskManagers;
        taskManager =
                start(
                        name,
                        flinkClasspath,
                        null,
                        flinkJvmOptions(tm.get(0), name),
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                        args,
                        taskManagerEnv);
        Process started = taskManager;
        await(
                name + " to register with the JobManager",
                Duration.ofSeconds(90),
                () -> {
                    assertAlive(started, name);
                    return !before.containsAll(taskManagerIds());
                });
    }

    private java.util.Set<String> taskManagerIds() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        JsonNode tms = rest("/taskmanagers");
        if (tms != null) {
            tms.path("taskmanagers").forEach(t -> ids.add(t.path("id").asText()));
        }
        return ids;
    }

    /**
     * Kills the current TaskManager process (SIGKILL: no shutdown hooks, no goodbye to the
     * JobManager).
     */
    void killTaskManager() throws InterruptedException {
        taskManager.destroyForcibly();
        if (!taskManager.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the TaskManager did not die");
        }
    }

    /** {@code CliFrontend run -d JAR ARGS…}; returns the job id the client printed. */
    String submit(Path jar, List<String> programArgs) throws Exception {
        return submit(List.of(), jar, programArgs);
    }

    /**
     * {@code CliFrontend run -d OPTIONS… JAR ARGS…} (e.g. {@code -s SAVEPOINT}); returns the job id
     * the client printed.
     */
    String submit(List<String> runOptions, Path jar, List<String> programArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "-d"));
        args.addAll(runOptions);
        args.add(jar.toString());
        args.addAll(programArgs);
        String out = flinkCli("flink-run", args);
        Matcher m = Pattern.compile("JobID ([0-9a-f]{32})").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("flink run printed no JobID: " + out);
        }
        return m.group(1);
    }

    /**
     * {@code flink stop --savepointPath DIR JOB} (no {@code --drain}: open windows stay open in the
     * savepoint); returns the savepoint's path the client printed.
     */
    String stopWithSavepoint(String jobId) throws Exception {
        String dir = HOME.resolve("savepoints").toUri().toString();
        String out = flinkCli("flink-stop", List.of("stop", "--savepointPath", dir, jobId));
        Matcher m = Pattern.compile("Savepoint completed\\. Path: (\\S+)").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("flink stop printed no savepoint path: " + out);
        }
        return m.group(1);
    }

    /**
     * A directory holding {@code flink} (Flink's CLI on this cluster's classpath and configuration,
     * as bin/flink is in the image) and {@code java} (this JVM's), to put first on a command's
     * PATH.
     */
    Path binDirectory() throws IOException {
        Path bin = HOME.resolve("bin");
        Files.createDirectories(bin);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path flink = bin.resolve("flink");
        Files.writeString(
                flink,
                "#!/usr/bin/env bash\nexport FLINK_CONF_DIR='"
                        + flinkConf
                        + "'\nexec '"
                        + java
                        + "' -Xmx256m "
                        + String.join(" ", moduleOpens())
                        + " -Dlog4j.configurationFile='"
                        + flinkConf.resolve("log4j-console.properties")
                        + "' -cp '"
                        + flinkClasspath
                        + "' org.apache.flink.client.cli.CliFrontend \"$@\"\n");
        Files.deleteIfExists(bin.resolve("java"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(java));
        flink.toFile().setExecutable(true);
        return bin;
    }

    /**
     * Runs {@code command} with bash (as a container runs its command) with {@code bin} first on
     * PATH and {@code env} added; output to target/real-cluster/NAME.log. Destroyed by {@link
     * #close} with every process it started.
     */
    Process runShell(String name, String command, Path bin, Map<String, String> env)
            throws IOException {
        ProcessBuilder pb =
                new ProcessBuilder("bash", "-c", command)
                        .redirectErrorStream(true)
                        .redirectOutput(HOME.resolve(name + ".log").toFile());
        pb.environment().remove("DPCLUST_SECRET"); // only what the test passes
        pb.environment().putAll(env);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process p = pb.start();
        children.add(p);
        return p;
    }

    /** The output so far of a child started as NAME. */
    static String log(String name) throws IOException {
        Path p = HOME.resolve(name + ".log");
        return Files.exists(p) ? Files.readString(p) : "";
    }

    /** Runs Flink's CLI with {@code args} to its end; returns its output. */
    private String flinkCli(String name, List<String> args) throws Exception {
        Path log = HOME.resolve(name + "-" + System.nanoTime() + ".log");
        List<String> jvm = new ArrayList<>(moduleOpens());
        jvm.add("-Dlog4j.configurationFile=" + flinkConf.resolve("log4j-console.properties"));
        Process client =
                start(
                        log.getFileName().toString().replace(".log", ""),
                        flinkClasspath,
                        "256m",
                        jvm,
                        "org.apache.flink.client.cli.CliFrontend",
                        args,
                        Map.of("FLINK_CONF_DIR", flinkConf.toString()));
        awaitExit(client, name, Duration.ofSeconds(120));
        return Files.readString(log);
    }

    void cancel(String jobId) throws Exception {
        HttpRequest req =
                HttpRequest.newBuilder(URI.create(restUrl() + "/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(10))
                        .build();
        http.send(req, HttpResponse.BodyHandlers.ofString());
        await(
                "job " + jobId + " to be cancelled",
                Duration.ofSeconds(60),
                () -> "CANCELED".equals(rest("/jobs/" + jobId).path("state").asText()));
    }

    /**
     * GET on the JobManager's REST API; null when it does not answer (yet) or answers with an
     * error.
     */
    JsonNode rest(String path) {
        try {
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(URI.create(restUrl() + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The two BASH_JAVA_UTILS_EXEC_RESULT lines of BashJavaUtils: JVM memory flags, then dynamic
     * properties.
     */
    private List<String> resourceParams(String command) throws Exception {
        String name = "bash-java-utils-" + command.toLowerCase().replace('_', '-');
        Process p =
                start(
                        name,
                        flinkClasspath,
                        "128m",
                        List.of(),
                        "org.apache.flink.runtime.util.bash.BashJavaUtils",
                        List.of(command, "--configDir", flinkConf.toString()),
                        Map.of());
        awaitExit(p, name, Duration.ofSeconds(60));
        List<String> result = new ArrayList<>();
        for (String line : Files.readAllLines(HOME.resolve(name + ".log"))) {
            if (line.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:")) {
                result.add(line.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()).trim());
            }
        }
        if (result.size() != 2) {
            throw new IllegalStateException(name + " did not print two result lines: " + result);
        }
        return result;
    }

    private static List<String> dynamicProperties(String line) {
        return line.isBlank() ? List.of() : Arrays.asList(line.trim().split("\\s+"));
    }

    /** Memory flags from BashJavaUtils (these include -Xmx), Flink's module opens, logging. */
    private List<String> flinkJvmOptions(String memoryFlags, String name) {
        List<String> o = new ArrayList<>(Arrays.asList(memoryFlags.trim().split("\\s+")));
        o.add("-XX:+UseSerialGC");
        o.addAll(moduleOpens());
        o.add("-Dlog.file=" + HOME.resolve(name + ".log"));
        o.add("-Dlog4j.configurationFile=" + flinkConf.resolve("log4j-console.properties"));
        return o;
    }

    /** The test JVM's own --add-opens (the pom's flink.jvm.opens), passed on to the Flink JVMs. */
    private static List<String> moduleOpens() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens"))
                .toList();
    }

    private Path log4jConfig() throws IOException {
        Path p = HOME.resolve("log4j2-children.properties");
        if (!Files.exists(p)) {
            Files.writeString(
                    p,
                    String.join(
                            "\n",
                            "rootLogger.level = INFO",
                            "rootLogger.appenderRef.console.ref = console",
                            "appender.console.name = console",
                            "appender.console.type = Console",
                            "appender.console.layout.type = PatternLayout",
                            "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1.} - %m%n",
                            "logger.kafka.name = kafka",
                            "logger.kafka.level = WARN",
                            "logger.kafkaclients.name = org.apache.kafka",
                            "logger.kafkaclients.level = WARN",
                            "logger.statechange.name = state.change.logger",
                            "logger.statechange.level = WARN",
                            ""));
        }
        return p;
    }

    /** Starts a child JVM with output (stdout and stderr) to target/real-cluster/NAME.log. */
    private Process start(
            String name,
            String classpath,
            String heap,
            List<String> jvmOptions,
            String mainClass,
            List<String> args,
            Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (heap != null) {
            cmd.add("-Xmx" + heap);
        }
        cmd.addAll(jvmOptions);
        if (cmd.stream().noneMatch(a -> a.startsWith("-Xmx"))) {
            throw new IllegalStateException(name + ": every child JVM needs an explicit heap");
        }
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(args);
        ProcessBuilder pb =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(HOME.resolve(name + ".log").toFile());
        // a secret exported in the developer's shell must not stand in for one the test omits
        pb.environment().remove("DPCLUST_SECRET");
        pb.environment().putAll(env);
        Process p = pb.start();
        children.add(p);
        return p;
    }

    static void awaitExit(Process p, String name, Duration timeout) throws InterruptedException {
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish within " + timeout);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(
                    name + " exited with " + p.exitValue() + "; see " + HOME);
        }
    }

    private static void assertAlive(Process p, String name) {
        if (!p.isAlive()) {
            throw new IllegalStateException(
                    name + " exited with " + p.exitValue() + "; see " + HOME);
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier done)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after "
                                + timeout
                                + " waiting for "
                                + what
                                + " (logs: "
                                + HOME
                                + ")");
            }
            Thread.sleep(250);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Destroys every child JVM (forcibly after 10 s). */
    @Override
    public void close() {
        for (Process p : children) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : children) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
