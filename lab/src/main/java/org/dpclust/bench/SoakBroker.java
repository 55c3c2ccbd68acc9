package org.dpclust.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpclust.devkit.EmbeddedKafka;

/**
 * The soak's Kafka broker in a JVM of its own, so that the soak's heap figure is the job's and not
 * the broker's growing log. {@link #start()} launches {@code java -Xmx384m -cp <this JVM's class
 * path> org.dpclust.bench.SoakBroker}; the child starts {@link EmbeddedKafka} on a free port,
 * prints {@code bootstrap=HOST:PORT}, then answers each {@code heap} line on its standard input
 * with its own heap used after a full GC in bytes, and stops the broker when its standard input
 * closes (so it also ends when the soak's JVM does). Its log goes to a temporary file.
 */
public final class SoakBroker implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final String bootstrap;

    private SoakBroker(Process process) throws IOException {
        this.process = process;
        this.out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String line = out.readLine();
        while (line != null && !line.startsWith("bootstrap=")) {
            line = out.readLine(); // anything a library printed to standard output
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IllegalStateException("the soak's broker JVM did not start");
        }
        this.bootstrap = line.substring("bootstrap=".length());
    }

    /** Starts the broker JVM and returns once it serves requests. */
    public static SoakBroker start() throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx384m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SoakBroker.class.getName());
        Path log = Files.createTempFile("soak-broker", ".log");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        return new SoakBroker(p);
    }

    /** The broker's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrap;
    }

    /** The broker JVM's heap used after a full GC, in bytes. */
    public long heapAfterGc() throws IOException {
        in.println("heap");
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.trim().matches("[0-9]+")) {
                return Long.parseLong(line.trim());
            }
        }
        throw new IllegalStateException("the soak's broker JVM has exited");
    }

    @Override
    public void close() throws InterruptedException {
        in.close();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The child: see the class comment. */
    public static void main(String[] args) throws IOException {
        PrintStream stdout = System.out;
        System.setOut(System.err); // only the protocol goes to standard output
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                BufferedReader stdin =
                        new BufferedReader(
                                new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            stdout.println("bootstrap=" + kafka.bootstrapServers());
            stdout.flush();
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.trim().equals("heap")) {
                    System.gc();
                    stdout.println(
                            ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
                    stdout.flush();
                }
            }
        }
        System.exit(0);
    }
}
