package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.TelemetryRecord;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.io.AvroCodec;
import org.dpclust.io.Publication;
import org.dpclust.io.RawRecord;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.testing.DpTester;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end statistical DP test of the stream job's production path (tier {@code dp}): Avro {@code
 * TelemetryRecord} bytes → {@link RecordValidator} (decode, clamp) → {@link LatenessFilter}
 * (inclusion) → {@link WindowPreAggregator} (phase 1) → {@link StreamClusteringFunction} (phase 2:
 * device bounding, ledger charge, keyed release) in Flink's operator test harnesses, on a public
 * schedule of the run's windows from 0 ({@link StreamTestRecords#policy}), every record appended at
 * its window's start (so all count), the append-time watermark advanced to each window's close,
 * phase 2 charging a fresh {@link RecordingLedger} per run, and the statistic computed from the
 * {@code CentroidRelease} decoded from the bytes the sink would write for each emitted {@link
 * Publication}.
 *
 * <p><b>Pairs.</b> Record units: D has records around both public stats cells; D′ = D + one record
 * far outside the box, (10⁹, −10⁹), which the validator clamps to the corner (1, 0): the corner's
 * cell gains one count and its centred sums move by +½ and −½ box widths, the whole L1 sensitivity
 * of both the count and the sum mechanism. Device units, c = 2: D has devices of c records, each
 * device's at one point; D′ adds one device sending 3c = 6 records spread over the window, every
 * one far out of bounds in a different way but all clamped to the same corner — whichever c the
 * keyed reservoir keeps, the cell moves by c counts and c·d/2 box widths, again the whole
 * sensitivity. A broken clamp or bound would move it by more.
 *
 * <p><b>Statistic.</b> With k = cells = 2 and both cells far above the usability threshold, the
 * {@code stats} release publishes each cell's noisy count (as the centroid's weight) and its noisy
 * mean (as the centroid), so the noisy sums are recovered from the published values: S_j =
 * ((centroid_j − mid_j)/width_j)·weight. The statistic is the privacy-loss variable of the affected
 * cell at the calibrated scales (published in {@code mechanism_params} of a calibrated release):
 * count term plus the d sum terms ({@link DpTester#laplaceLoss}). The exact (D, D′) values of that
 * cell are read from the same pipeline at ε = 10⁶ (noise below 10⁻⁵ of the tested scales), and the
 * test first asserts that the pair uses exactly the whole sensitivity.
 *
 * <p><b>Samples.</b> The noise of a window is keyed by HMAC(secret, stream, window start, public
 * spec, contents): each pipeline run uses a fresh secret drawn from the test's fixed stream, and
 * releases {@value #WINDOWS} consecutive windows, each an independent sample (the budget period is
 * one window and the cap large, so the ledger, which is public configuration outside the noise,
 * never refuses and stays small). Building the three harnesses once per sample would cost
 * milliseconds per sample; one pipeline for many windows costs a few microseconds per record.
 * Samples: 20 000 a side (the tolerance is unchanged), 3 runs by majority.
 */
@Tag("dp")
class StreamPipelineDpTest {
    /** Window length (ms). */
    private static final long W = 10_000;

    /** Windows (samples) per pipeline run, each run with its own secret. */
    private static final int WINDOWS = 2_000;

    private static final double EPSILON = 1.0;

    /** ε at which the pipeline's noise is negligible: reads the exact cell values. */
    private static final double NOISELESS = 1e6;

    private static final int C = 2;

    private static final AvroCodec<CentroidRelease> CENTROIDS = AvroCodec.centroids();

    /** 20 000 samples a side, 3 runs by majority (see the class comment for the cost). */
    private static final DpTester.Options OPTIONS =
            DpTester.Options.defaults().withSamples(20_000).withRepetitions(3);

    @TempDir Path dir;

    /**
     * The test stream (window 10 s, k = 2) with two stats cells; the budget period is one window
     * and the cap large, so the ledger never refuses and stays small.
     */
    private static StreamSpec spec(boolean device, double epsilon) {
        return StreamTestRecords.spec(
                "    summaries: [stats]\n    budget_period: PT10S\n"
                        + (device
                                ? "    privacy_unit: device\n    device_contribution_bound: "
                                        + C
                                        + "\n"
                                : ""),
                "{cells: 2}",
                epsilon,
                1.0e7);
    }

    private static byte[] telemetry(String device, long t, double x, double y) {
        return AvroCodec.telemetry()
                .encode(
                        TelemetryRecord.newBuilder()
                                .setStreamId("s")
                                .setDeviceId(device)
                                .setEventTime(Instant.ofEpochMilli(t))
                                .setFeatures(List.of(x, y))
                                .build());
    }

    /**
     * The Avro bytes of window {@code w}: around each public cell point, {@code perCell} records
     * (record units: one device each; device units: devices of c records at one point each, so D's
     * window contents do not depend on the keyed reservoir); on D′ the added unit's records.
     */
    private static List<byte[]> window(boolean device, boolean neighbour, int w) {
        StreamRuntime rt = StreamRuntime.of(spec(device, EPSILON));
        int perCell = device ? 40 * C : 50;
        long t0 = w * W;
        List<byte[]> out = new ArrayList<>();
        for (int cell = 0; cell < rt.cells().size(); cell++) {
            double[] p = rt.cells().point(cell);
            for (int i = 0; i < perCell; i++) {
                int unit = device ? i / C : i;
                double dx = ((unit * 37) % 11 - 5) * 0.002;
                double dy = ((unit * 53) % 13 - 6) * 0.002;
                String dev = "c" + cell + "-" + unit;
                out.add(telemetry(dev, t0 + (i * 7L + cell) % W, p[0] + dx, p[1] + dy));
            }
        }
        if (neighbour) {
            if (device) {
                double[][] far = {
                    {1e9, -1e9},
                    {5, -5},
                    {1.5, -0.25},
                    {Double.MAX_VALUE, -Double.MAX_VALUE},
                    {2, -3},
                    {1e3, -1e-3}
                };
                for (int i = 0; i < far.length; i++) {
                    out.add(telemetry("intruder", t0 + i * (W / far.length), far[i][0], far[i][1]));
                }
            } else {
                out.add(telemetry("intruder", t0 + W / 2, 1e9, -1e9));
            }
        }
        return out;
    }

    /** The three operators of the production path in their harnesses, one secret. */
    private static final class Pipeline implements AutoCloseable {
        final OneInputStreamOperatorTestHarness<RawRecord, ValidRecord> validator;
        final OneInputStreamOperatorTestHarness<ValidRecord, ValidRecord> lateness;
        final KeyedOneInputStreamOperatorTestHarness<String, ValidRecord, WindowPartial> phase1;
        final KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication> phase2;
        long offset;

        /**
         * @param windows the public schedule: {@code windows} windows from 0
         */
        Pipeline(StreamSpec s, SecretSource secret, int windows) throws Exception {
            EventTimePolicy policy = StreamTestRecords.policy(windows);
            validator =
                    ProcessFunctionTestHarnesses.forProcessFunction(
                            new RecordValidator(List.of(s)));
            lateness =
                    ProcessFunctionTestHarnesses.forProcessFunction(
                            new LatenessFilter(List.of(s), policy));
            phase1 =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new WindowPreAggregator(List.of(s), policy, secret),
                            new SubStreamKey(List.of(s)),
                            Types.STRING);
            phase1.open();
            // a fresh in-memory ledger per run: one-window budget periods, so it never refuses
            phase2 =
                    StreamTestRecords.harness(
                            new StreamClusteringFunction(
                                    List.of(s),
                                    secret,
                                    Map.of(),
                                    policy,
                                    new RecordingLedger().factory()),
                            p -> p.streamId);
        }

        /**
         * Feeds each window's bytes, then advances the watermark past the window (the stream's
         * event time moves window by window, as in the job); returns the releases.
         */
        List<CentroidRelease> run(List<List<byte[]>> windows) throws Exception {
            List<CentroidRelease> out = new ArrayList<>();
            for (int w = 0; w < windows.size(); w++) {
                long watermark = (w + 1) * W - 1;
                for (byte[] b : windows.get(w)) {
                    // appended by the broker at the window's start: every event time of the
                    // window is at or after it, within the schedule's max future, so all count
                    RawRecord raw = new RawRecord(b, "telemetry", 0, offset++);
                    raw.appendTime = w * W;
                    raw.logAppendTime = true;
                    validator.processElement(raw, raw.appendTime);
                }
                for (ValidRecord v : validator.extractOutputValues()) {
                    lateness.processElement(v, v.appendTime);
                }
                validator.getOutput().clear();
                for (ValidRecord v : lateness.extractOutputValues()) {
                    phase1.processElement(v, v.appendTime);
                }
                lateness.getOutput().clear();
                lateness.processWatermark(watermark);
                phase1.processWatermark(watermark);
                for (StreamRecord<? extends WindowPartial> p :
                        phase1.extractOutputStreamRecords()) {
                    phase2.processElement(p.getValue(), p.getTimestamp());
                }
                phase1.getOutput().clear();
                phase2.processWatermark(watermark);
                for (Publication p : phase2.extractOutputValues()) {
                    if (p instanceof Publication.Centroids) {
                        out.add(CENTROIDS.decode(StreamTestRecords.bytes(p)));
                    }
                }
                phase2.getOutput().clear();
            }
            return out;
        }

        @Override
        public void close() throws Exception {
            validator.close();
            lateness.close();
            phase1.close();
            phase2.close();
        }
    }

    /** A secret file holding a fresh secret drawn from {@code rng}. */
    private SecretSource secret(PrivacyRandom rng) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i += 8) {
            long v = rng.nextLong();
            for (int j = 0; j < 8; j++) {
                key[i + j] = (byte) (v >>> (8 * j));
            }
        }
        try {
            Path f = Files.createTempFile(dir, "secret", ".hex");
            Files.writeString(f, HexFormat.of().formatHex(key));
            return SecretSource.ofFile(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<CentroidRelease> releases(
            boolean device, double epsilon, SecretSource secret, List<List<byte[]>> windows) {
        try (Pipeline p = new Pipeline(spec(device, epsilon), secret, windows.size())) {
            List<CentroidRelease> out = p.run(windows);
            assertEquals(windows.size(), out.size(), "one stats release per window");
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A published cell: its noisy count and noisy centred sums in box widths. */
    private static double[] cell(CentroidRelease r, int i) {
        double n = r.getWeights().get(i);
        List<Double> c = r.getCentroids().get(i);
        double[] v = new double[3];
        v[0] = n;
        for (int j = 0; j < 2; j++) {
            double mid = (r.getDomainLower().get(j) + r.getDomainUpper().get(j)) / 2;
            double width = r.getDomainUpper().get(j) - r.getDomainLower().get(j);
            v[1 + j] = (c.get(j) - mid) / width * n;
        }
        return v;
    }

    private void check(String name, boolean device) {
        int c = device ? C : 1;
        List<List<byte[]>> onD = new ArrayList<>();
        List<List<byte[]>> onDPrime = new ArrayList<>();
        for (int w = 0; w < WINDOWS; w++) {
            onD.add(window(device, false, w));
            onDPrime.add(window(device, true, w));
        }
        PrivacyRandom setup = TestRandoms.stream(name + "/setup");
        // the exact values of both cells on D and D', and the calibrated scales
        CentroidRelease exactD =
                releases(device, NOISELESS, secret(setup), onD.subList(0, 1)).get(0);
        CentroidRelease exactDPrime =
                releases(device, NOISELESS, secret(setup), onDPrime.subList(0, 1)).get(0);
        Map<String, Double> nominal =
                releases(device, EPSILON, secret(setup), onD.subList(0, 1))
                        .get(0)
                        .getMechanismParams();
        double countScale = nominal.get("count_noise_scale");
        double sumScale = nominal.get("sum_noise_scale_box_units");
        int affected = -1;
        double[] a = null;
        double[] b = null;
        for (int i = 0; i < 2; i++) {
            double[] x = cell(exactD, i);
            double[] y = cell(exactDPrime, i);
            if (Math.abs(y[0] - x[0]) > 0.5) {
                affected = i;
                a = x;
                b = y;
            }
        }
        // the pair moves exactly one cell, by the whole sensitivity: c counts, +c/2 and -c/2 box
        // widths (the clamped corner); the other cell is unchanged
        assertNotEquals(-1, affected, "D' changes a published cell");
        assertArrayEquals(
                cell(exactD, 1 - affected), cell(exactDPrime, 1 - affected), 1e-3, "other cell");
        assertEquals(c, b[0] - a[0], 1e-3, "count difference");
        assertEquals(c / 2.0, b[1] - a[1], 1e-3, "sum difference, coordinate 0");
        assertEquals(-c / 2.0, b[2] - a[2], 1e-3, "sum difference, coordinate 1");
        assertEquals(2.0, exactD.getMechanismParams().get("cells_used"), "both cells usable on D");
        final int cellIndex = affected;
        final double[] fa = a;
        final double[] fb = b;
        Map<String, ArrayDeque<Double>> buffers = new HashMap<>();
        long[] pipelineNanos = new long[1];
        long started = System.nanoTime();
        DpTester.assertCalibratedPassesAndHalvedFails(
                name,
                EPSILON,
                EPSILON,
                OPTIONS,
                false,
                (neighbour, eps, rng) -> {
                    ArrayDeque<Double> buf =
                            buffers.computeIfAbsent(neighbour + "/" + eps, k -> new ArrayDeque<>());
                    if (buf.isEmpty()) {
                        long t = System.nanoTime();
                        for (CentroidRelease r :
                                releases(device, eps, secret(rng), neighbour ? onDPrime : onD)) {
                            buf.add(loss(r, cellIndex, fa, fb, countScale, sumScale));
                        }
                        pipelineNanos[0] += System.nanoTime() - t;
                    }
                    return buf.poll();
                });
        System.out.printf(
                Locale.ROOT,
                "DP %s: %.1f s, %.1f s of it in the pipeline (%d windows per pipeline)%n",
                name,
                (System.nanoTime() - started) / 1e9,
                pipelineNanos[0] / 1e9,
                WINDOWS);
    }

    /**
     * The privacy-loss variable of the affected cell at the calibrated scales; a release in which
     * not every cell was usable (the published centroids then no longer line up with the cells;
     * never seen at these counts) maps to a fixed value outside [−ε, ε].
     */
    private static double loss(
            CentroidRelease r,
            int cellIndex,
            double[] a,
            double[] b,
            double countScale,
            double sumScale) {
        if (r.getMechanismParams().get("cells_used") != 2.0) {
            return -10;
        }
        double[] o = cell(r, cellIndex);
        double l = DpTester.laplaceLoss(o[0], a[0], b[0], countScale);
        for (int j = 1; j < 3; j++) {
            l += DpTester.laplaceLoss(o[j], a[j], b[j], sumScale);
        }
        return l;
    }

    @Test
    void recordUnitsAddingOneFarOutOfBoundsRecord() {
        check("stream-pipeline-record", false);
    }

    @Test
    void deviceUnitsAddingADeviceWithThreeTimesCRecords() {
        check("stream-pipeline-device", true);
    }
}
