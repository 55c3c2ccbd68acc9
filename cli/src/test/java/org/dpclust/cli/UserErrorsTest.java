package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpclust.launch.UserErrors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every user mistake gets exactly one line on stderr and exit code 2, never a stack trace ({@link
 * UserErrors}).
 */
class UserErrorsTest {
    /** Exit code and everything written to stderr by one command line. */
    private record Run(int exit, String err) {}

    private static final String VALID_STREAM =
            """
            streams:
              - id: s
                dimension: 2
                lower: [0, 0]
                upper: [1, 1]
                k: 2
                window: PT10S
                epsilon_per_release: 1
                budget_cap: 10
            """;

    private static Run run(String... args) {
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), err.toString());
    }

    /** Exit code 2, one line, no exception class or stack frame, containing every fragment. */
    private static String assertOneLine(Run r, String... fragments) {
        assertEquals(2, r.exit(), r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), "expected one stderr line, got:\n" + r.err());
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains("at org."), err);
        assertFalse(err.contains("at java."), err);
        for (String f : fragments) {
            assertTrue(err.contains(f), "'" + f + "' missing from: " + err);
        }
        return err;
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream", "generate"})
    void missingConfigFile(String command, @TempDir Path dir) {
        Path missing = dir.resolve("missing.yaml");
        assertOneLine(
                run(command, "--config", missing.toString()),
                "dpclust " + command + ": --config " + missing + ": no such file");
    }

    @Test
    void anAbsurdKIsOneLineAtOnce(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("p.csv"), "x1,x2\n0.1,0.2\n0.3,0.4\n");
        assertOneLine(
                run("batch", "--algorithm", "lloyd", "--input", csv.toString(), "--k", "1000000"),
                "dpclust batch: --k must be between 1 and 10000, was 1000000");
        assertOneLine(
                run("batch", "--algorithm", "lloyd", "--input", csv.toString(), "--k", "3"),
                "dpclust batch: --k: 3 centroids from the 2 records of " + csv);
    }

    @Test
    void metricsWithoutAJobIsOneLine() {
        assertOneLine(
                run("local", "--metrics-port", "9249"),
                "dpclust local: --metrics-port serves the job's metrics: add --with-job");
    }

    @Test
    void aBudgetPartitionCountOutOfRangeIsOneLine() {
        assertOneLine(
                run("stream", "--budget-partitions", "0"),
                "dpclust stream: --budget-partitions: must be between 1 and 10000");
    }

    @Test
    void aDirectoryAsConfigIsOneLine(@TempDir Path dir) {
        assertOneLine(
                run("stream", "--config", dir.toString()),
                "dpclust stream: --config " + dir + ": a directory, not a configuration file");
    }

    /** Any file option given a directory is one line naming the option, not a stack trace. */
    @Test
    void aDirectoryForAnyFileOptionIsOneLine(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("p.csv"), "x1,x2\n0.1,0.2\n0.3,0.4\n");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        // an existing output directory is a directory by design: never the one blamed
        Path out = Files.createDirectory(dir.resolve("out"));
        assertOneLine(
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        csv.toString(),
                        "--k",
                        "1",
                        "--epsilon",
                        "1",
                        "--bounds",
                        "0,0;1,1",
                        "--secret-file",
                        sub.toString(),
                        "--output",
                        out.toString()),
                "dpclust batch: --secret-file " + sub + ": a directory, not a file");
        assertOneLine(
                run(
                        "consume",
                        "--bootstrap-servers",
                        "127.0.0.1:1",
                        "--kafka-properties",
                        sub.toString()),
                "dpclust consume: --kafka-properties " + sub + ": a directory, not a file");
    }

    /**
     * An I/O error that is not a file option naming a directory is never blamed on one: an existing
     * --output directory is one by design, and an unrelated failure (a full disk) is not a user
     * mistake.
     */
    @Test
    void anOutputDirectoryIsNeverBlamedForAnIoError(@TempDir Path dir) throws IOException {
        Path out = Files.createDirectory(dir.resolve("out"));
        CommandLine.ParseResult parse =
                new CommandLine(new BatchCommand())
                        .parseArgs(
                                "--algorithm",
                                "stats",
                                "--input",
                                "x.csv",
                                "--output",
                                out.toString());
        assertNull(UserErrors.describe(new IOException("No space left on device"), parse));
        assertNull(UserErrors.describe(new IOException("Is a directory"), parse));
    }

    /** A typo is named as the unknown option or command, with the closest known names. */
    @Test
    void aTypoIsNamedWithWhatWasMeant(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("p.csv"), "x1,x2\n0.1,0.2\n");
        assertOneLine(
                run("batch", "--algoritm", "stats", "--input", csv.toString(), "--k", "2"),
                "dpclust batch: unknown option '--algoritm', did you mean --algorithm");
        assertOneLine(run("strem"), "dpclust: unknown command 'strem', did you mean stream");
    }

    /** No command is a mistake too: exit 2 and the usage, not exit 0. */
    @Test
    void noCommandExitsTwoWithTheUsage() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(buffer, true));
        int exit;
        try {
            exit = DpclustCommand.commandLine().execute();
        } finally {
            System.setErr(stderr);
        }
        assertEquals(2, exit);
        assertTrue(
                buffer.toString().startsWith("dpclust: a command is required"), buffer.toString());
        assertTrue(buffer.toString().contains("Usage: dpclust"), buffer.toString());
    }

    @Test
    void batchWithAMissingConfigFile(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("p.csv"), "x1,x2\n0.1,0.2\n0.3,0.4\n");
        Path missing = dir.resolve("missing.yaml");
        assertOneLine(
                run(
                        "batch",
                        "--algorithm",
                        "stats",
                        "--input",
                        csv.toString(),
                        "--config",
                        missing.toString(),
                        "--stream",
                        "s",
                        "--epsilon",
                        "1",
                        "--output",
                        dir.resolve("o").toString()),
                "dpclust batch: --config " + missing + ": no such file");
    }

    @Test
    void yamlSyntaxErrorGivesLineAndColumn(@TempDir Path dir) throws IOException {
        // line 3 is indented by one space: not a key of `kafka`, not a top-level key either
        Path bad =
                Files.writeString(
                        dir.resolve("bad.yaml"),
                        "kafka:\n  bootstrap_servers: localhost:9092\n streams: []\n");
        assertOneLine(
                run("stream", "--config", bad.toString()),
                "dpclust stream: " + bad + " line 3, column 2: not valid YAML: ");
        // VALID_STREAM has 9 lines; the flow sequence opened on line 10 is still open at the end
        Path unclosed = Files.writeString(dir.resolve("u.yaml"), VALID_STREAM + "    x: [1, 2\n");
        assertOneLine(
                run("generate", "--config", unclosed.toString()), unclosed + " line 11, column 1");
    }

    @Test
    void csvWithoutAHeaderRowIsRefused(@TempDir Path dir) throws IOException {
        Path csv =
                Files.writeString(dir.resolve("nohead.csv"), "0.1,0.2,0\n0.3,0.4,1\n0.5,0.5,1\n");
        assertOneLine(
                run(
                        "batch",
                        "--algorithm",
                        "lloyd",
                        "--input",
                        csv.toString(),
                        "--k",
                        "2",
                        "--output",
                        dir.resolve("o").toString()),
                "dpclust batch: " + csv + ": line 1 is data (0.1,0.2,0), not a header");
    }

    @Test
    void demoRefusesZeroOrNegativeWindowsBeforeStartingAnything() {
        long start = System.nanoTime();
        assertOneLine(run("demo", "--windows", "0"), "dpclust demo: --windows: must be at least 1");
        assertOneLine(run("demo", "--windows", "-3"), "--windows: must be at least 1, was -3");
        assertOneLine(run("demo", "--records-per-window", "0"), "--records-per-window");
        assertOneLine(run("demo", "--timeout", "PT0S"), "--timeout: must be positive");
        // a broker start alone takes seconds; these return at once
        assertTrue((System.nanoTime() - start) / 1e9 < 5, "validation must precede any start-up");
    }

    @Test
    void consumeAgainstABrokerThatIsNotThere() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free once closed: nothing listens there
        }
        String servers = "127.0.0.1:" + port;
        assertOneLine(
                run("consume", "--bootstrap-servers", servers),
                "dpclust consume: cannot reach the Kafka broker (--bootstrap-servers "
                        + servers
                        + ")",
                "nothing accepts connections at " + servers);
    }

    @Test
    void consumeAgainstAHostThatDoesNotResolve() {
        assertOneLine(
                run("consume", "--bootstrap-servers", "no-such-host.invalid:9092"),
                "dpclust consume: cannot reach the Kafka broker (--bootstrap-servers"
                        + " no-such-host.invalid:9092)",
                "host 'no-such-host.invalid' does not resolve");
    }

    @Test
    void parameterErrorsAreOneLineWithAPointerToHelp() {
        assertOneLine(
                run("demo", "--windows", "many"),
                "dpclust demo: ",
                "many",
                "(see dpclust demo --help)");
        assertOneLine(run("nosuchcommand"), "dpclust: ", "nosuchcommand");
    }

    @Test
    void bugsAreNotDressedUpAsUserErrors() {
        assertNull(UserErrors.describe(new NullPointerException("bug"), null));
        assertNull(UserErrors.describe(new IOException("disk on fire"), null));
    }

    /**
     * A broker refusing credentials or access later than the start-up check (e.g. while the ledger
     * opens) is still one line, whatever wraps Kafka's exception.
     */
    @Test
    void kafkaAuthenticationAndAuthorizationFailuresAreOneLine() {
        String auth =
                UserErrors.describe(
                        new IllegalStateException(
                                "cannot read budget topic",
                                new java.util.concurrent.ExecutionException(
                                        new org.apache.kafka.common.errors
                                                .SaslAuthenticationException(
                                                "Authentication failed during authentication due"
                                                        + " to invalid credentials with SASL"
                                                        + " mechanism SCRAM-SHA-512"))),
                        null);
        assertTrue(auth.startsWith("Kafka authentication failed at the broker: "), auth);
        assertTrue(auth.contains("invalid credentials"), auth);
        assertTrue(auth.contains("kafka.properties or --kafka-properties"), auth);
        String acl =
                UserErrors.describe(
                        new RuntimeException(
                                new org.apache.kafka.common.errors.TopicAuthorizationException(
                                        java.util.Set.of("dpclust.budget.v1"))),
                        null);
        assertTrue(acl.startsWith("Kafka refused access: "), acl);
        assertTrue(acl.contains("dpclust.budget.v1"), acl);
    }

    @Test
    void versionIsThePomVersion() throws IOException {
        Matcher m =
                Pattern.compile(
                                "<artifactId>dpclust-parent</artifactId>\\s*<version>([^<]+)</version>")
                        .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "project version not found in pom.xml");
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        assertEquals(0, cl.execute("-V"));
        assertEquals("dpclust " + m.group(1), out.toString().lines().findFirst().orElse(""));
        String pom = Files.readString(Path.of("pom.xml"));
        String build = out.toString().lines().skip(1).findFirst().orElse("");
        for (String v : List.of("flink.version", "kafka.version", "avro.version")) {
            String version = pom.replaceAll("(?s).*<" + v + ">([^<]+)</" + v + ">.*", "$1");
            assertTrue(build.contains(" " + version), v + " " + version + " in: " + build);
        }
        // the commit the build was made from (this checkout's HEAD, or an ancestor if built
        // earlier)
        String commit = build.replaceAll("^commit ([0-9a-f]+|unknown),.*", "$1");
        assertTrue(commit.matches("[0-9a-f]{7,}"), "a commit id in: " + build);
        Process git = new ProcessBuilder("git", "cat-file", "-t", commit).start();
        assertEquals("commit", new String(git.getInputStream().readAllBytes()).strip(), commit);
    }
}
