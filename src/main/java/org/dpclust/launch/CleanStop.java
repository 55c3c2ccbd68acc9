package org.dpclust.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.slf4j.Logger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How a command that runs the streaming job in its own JVM (a Flink MiniCluster: {@code local},
 * stand-alone {@code stream}) stops: SIGINT (Ctrl-C) or SIGTERM requests an orderly stop and a
 * second one exits at once ({@link #onSignals}); the job stops with a savepoint ({@link #stopJob}),
 * so that its exactly-once sink commits the transactions of that savepoint and aborts the one it
 * opened after — a {@code read_committed} consumer is not left waiting for the broker's transaction
 * timeout.
 */
public final class CleanStop {
    /** How long each step of a stop may take. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final CountDownLatch requested = new CountDownLatch(1);
    private final java.util.Map<String, SignalHandler> previous = new java.util.HashMap<>();
    private final AtomicReference<String> signal = new AtomicReference<>();

    private CleanStop() {}

    /** Installs the SIGINT and SIGTERM handlers (a second signal halts with exit code 130). */
    public static CleanStop onSignals(Logger log) {
        CleanStop stop = new CleanStop();
        for (String name : new String[] {"INT", "TERM"}) {
            SignalHandler before =
                    Signal.handle(
                            new Signal(name),
                            s -> {
                                if (!stop.signal.compareAndSet(null, "SIG" + s.getName())) {
                                    log.warn("second SIG{}: exiting at once", s.getName());
                                    Runtime.getRuntime().halt(130);
                                }
                                stop.requested.countDown();
                            });
            stop.previous.put(name, before);
            if (before == SignalHandler.SIG_IGN) {
                // the JVM keeps a signal ignored when the process started with it ignored
                log.info(
                        "SIG{} is ignored in this process (started in the background by a"
                                + " script?): stop it with SIGTERM (kill <pid>)",
                        name);
            }
        }
        return stop;
    }

    /** Puts back the handlers {@link #onSignals} replaced (a command run inside another JVM). */
    public void restore() {
        previous.forEach((name, handler) -> Signal.handle(new Signal(name), handler));
    }

    /** Waits up to {@code timeout} for a stop request; true once one came. */
    public boolean await(Duration timeout) throws InterruptedException {
        return requested.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether a stop was requested. */
    public boolean requested() {
        return requested.getCount() == 0;
    }

    /** The signal that requested the stop ("SIGTERM"), or null. */
    public String signal() {
        return signal.get();
    }

    /**
     * Stops {@code job} with a savepoint into a temporary directory, deleted afterwards (it only
     * serves to commit the sink's transactions); cancels the job if that fails (its open
     * transactions are then aborted). Returns once the job's MiniCluster has shut down.
     */
    public static void stopJob(JobClient job, Logger log) throws Exception {
        JobStatus status = job.getJobStatus().get();
        if (status.isGloballyTerminalState()) {
            log.info("streaming job already ended ({})", status);
            return;
        }
        Path savepoints = Files.createTempDirectory("dpclust-stop-savepoint");
        try {
            String savepoint =
                    job.stopWithSavepoint(
                                    false,
                                    savepoints.toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            log.info(
                    "streaming job stopped with a savepoint ({}): its Kafka transactions are"
                            + " committed, none is left open",
                    savepoint);
        } catch (Exception e) {
            log.warn(
                    "stop with savepoint failed ({}); cancelling the job: its open Kafka"
                            + " transactions are aborted",
                    rootMessage(e));
            job.cancel().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            log.info("streaming job cancelled");
        } finally {
            deleteRecursively(savepoints);
        }
        try {
            // completes once the MiniCluster has shut down (its web UI port is free then)
            job.getJobExecutionResult().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            // a cancelled job has no execution result; the cluster is shut down all the same
        }
        log.info("Flink MiniCluster stopped");
    }

    /** The innermost cause as "Type: message". */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
