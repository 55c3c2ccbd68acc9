package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.DpclustConfig;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.HostilePayloads;
import org.dpclust.kafka.RawRecordDeserializer;
import org.dpclust.stream.LatenessFilter;
import org.dpclust.stream.RecordValidator;
import org.dpclust.stream.StreamClusteringFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile records ({@link HostilePayloads}: random bytes, truncated and over-long Avro, foreign
 * fingerprints, claimed gigantic arrays and strings, deep nesting, empty and null values, 64 KiB
 * keys, event times at the long extremes, ...) mixed one in {@value #EVERY} into a normal stream on
 * the real broker, through the job on a MiniCluster with restarts disabled (a failure caused by
 * input would fail the run): every hostile record is a dead letter with its reason, its detail and
 * its original bytes; records in = records in windows + records rejected, exactly; and the releases
 * are byte-identical to those of the same valid records without the hostile ones.
 */
class HostileInputIT {
    private static final long W = StreamingRuns.W;
    private static final long START = StreamingRuns.START;
    private static final int WINDOWS = 4;
    private static final int PER_WINDOW = 1_000;

    /** One hostile record after every {@value} valid ones. */
    private static final int EVERY = 9;

    @RegisterExtension static final MiniClusterExtension FLINK = StreamingRuns.miniCluster();

    private static EmbeddedKafka kafka;
    private static StreamingRuns runs;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        runs = new StreamingRuns(kafka);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static DpclustConfig config(String name) {
        DpclustConfig c =
                runs.boundedConfig(
                        name,
                        START,
                        START + WINDOWS * W,
                        """
                                  - {id: a, dimension: 2, lower: [0, 0], upper: [1, 1], k: 3, window: PT10S,
                                     epsilon_per_release: 1.0, budget_cap: 100, public_seed: 1}
                                """);
        return c;
    }

    /**
     * Writes the valid records (seeded, the same for every call) and, if {@code hostile} is not
     * null, one hostile record after every {@value #EVERY} valid ones; returns the hostile records
     * written.
     */
    private static List<HostilePayloads.Payload> write(DpclustConfig c, HostilePayloads hostile) {
        SplittableRandom r = new SplittableRandom(99);
        List<HostilePayloads.Payload> sent = new ArrayList<>();
        try (TelemetryProducer p =
                new TelemetryProducer(kafka.bootstrapServers(), c.kafka().inputTopic())) {
            int n = 0;
            for (int w = 0; w < WINDOWS; w++) {
                for (int i = 0; i < PER_WINDOW; i++) {
                    long t = START + w * W + i * (W / PER_WINDOW);
                    double cx = (i % 3) / 3.0 + 0.1;
                    p.send(
                            "a",
                            "d" + (i % 50),
                            t,
                            new double[] {
                                cx + 0.02 * r.nextGaussian(), 0.5 + 0.02 * r.nextGaussian()
                            });
                    if (hostile != null && ++n % EVERY == 0) {
                        HostilePayloads.Payload h = hostile.next();
                        p.sendRaw(h.key(), h.value());
                        sent.add(h);
                    }
                }
            }
        }
        return sent;
    }

    @Test
    void hostileRecordsAreDeadLetteredAndChangeNoRelease() throws Exception {
        DpclustConfig clean = config("clean");
        write(clean, null);
        runs.runBounded(clean, new RawRecordDeserializer(), "none");
        Map<String, byte[]> reference = runs.byWindow(clean);
        assertEquals(WINDOWS, reference.size(), "one release per window: " + reference.keySet());

        DpclustConfig c = config("hostile");
        List<HostilePayloads.Payload> sent =
                write(c, new HostilePayloads(5, "a", 2, START + W / 2));
        // restarts disabled: an exception caused by input fails the run here
        JobExecutionResult result = runs.runBounded(c, new RawRecordDeserializer(), "none");

        Map<String, Long> expected = new TreeMap<>();
        sent.forEach(h -> expected.merge(h.reason(), 1L, Long::sum));
        Map<String, Long> reasons = new TreeMap<>();
        List<RejectedRecord> dead = runs.deadLetters(c);
        for (RejectedRecord d : dead) {
            reasons.merge(d.getReason(), 1L, Long::sum);
            assertFalse(d.getDetail().isBlank(), "a detail for " + d.getReason());
            assertFalse(d.getDetail().contains("\n"), "a one-line detail: " + d.getDetail());
        }
        assertEquals(expected, reasons, "every hostile record is a dead letter with its reason");
        // each dead letter keeps its record's original bytes (the late ones come from another
        // operator, so the topic's order is not the input's: compare as multisets)
        List<String> sentLetters = new ArrayList<>();
        for (HostilePayloads.Payload h : sent) {
            byte[] original = h.value() == null ? new byte[0] : h.value();
            sentLetters.add(h.reason() + ":" + Base64.getEncoder().encodeToString(original));
        }
        List<String> deadLetters = new ArrayList<>();
        for (RejectedRecord d : dead) {
            ByteBuffer b = d.getOriginal();
            byte[] got = new byte[b.remaining()];
            b.get(got);
            deadLetters.add(d.getReason() + ":" + Base64.getEncoder().encodeToString(got));
        }
        Collections.sort(sentLetters);
        Collections.sort(deadLetters);
        assertTrue(sentLetters.equals(deadLetters), "dead letters keep the original bytes");

        long in = result.<Long>getAccumulatorResult(RecordValidator.ACC_RECORDS_IN);
        long windowed = result.<Long>getAccumulatorResult(StreamClusteringFunction.ACC_WINDOWED);
        long invalid = result.<Long>getAccumulatorResult(RecordValidator.ACC_REJECTED);
        long late = result.<Long>getAccumulatorResult(LatenessFilter.ACC_LATE);
        long valid = (long) WINDOWS * PER_WINDOW;
        assertEquals(valid + sent.size(), in, "records in");
        assertEquals(valid, windowed, "every valid record in its window");
        assertEquals(in, windowed + invalid + late, "records in = processed + rejected");
        assertEquals(sent.size(), invalid + late, "rejected = hostile");

        Map<String, byte[]> disturbed = runs.byWindow(c); // fails on a duplicate
        assertEquals(reference.keySet(), disturbed.keySet());
        for (String k : reference.keySet()) {
            assertArrayEquals(reference.get(k), disturbed.get(k), "release " + k);
        }
        System.out.printf(
                "HostileInputIT: %d valid + %d hostile records in; %d windowed, %d rejected;"
                        + " dead letters by reason %s; %d releases byte-identical to the clean"
                        + " run%n",
                valid, sent.size(), windowed, invalid + late, reasons, disturbed.size());
    }
}
