package org.dpclust.devkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.config.StreamSpec;
import org.dpclust.synthetic.DriftingGaussianMixture;
import org.dpclust.window.Rejections;

/**
 * Writes a synthetic telemetry scenario for configured streams: per stream a drifting Gaussian
 * mixture (k components, its own seed), {@code recordsPerWindow} records per window in event-time
 * order, devices cycling over a pool, and optionally malformed records of every kind mixed in.
 * Returns what it wrote, so releases can be compared with the true centres and dead letters with
 * the injected count.
 */
public final class SyntheticTelemetry {
    /** What a scenario wrote. */
    public record Written(
            long records,
            long valid,
            Map<String, Long> malformedByReason,
            Map<String, List<double[][]>> trueCenters) {
        public long malformed() {
            return malformedByReason.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final List<StreamSpec> streams;
    private final long startMillis;
    private final int windows;
    private final int recordsPerWindow;
    private final int malformedPerWindow;
    private final int devices;
    private final long seed;

    public SyntheticTelemetry(
            List<StreamSpec> streams,
            long startMillis,
            int windows,
            int recordsPerWindow,
            int malformedPerWindow,
            int devices,
            long seed) {
        this.streams = streams;
        this.startMillis = startMillis;
        this.windows = windows;
        this.recordsPerWindow = recordsPerWindow;
        this.malformedPerWindow = malformedPerWindow;
        this.devices = devices;
        this.seed = seed;
    }

    public DriftingGaussianMixture mixture(StreamSpec s, int index) {
        return new DriftingGaussianMixture(
                s.lower(), s.upper(), s.k(), 0.03, 0.25, seed + 7919L * index);
    }

    public Written write(TelemetryProducer out) {
        Map<String, Long> malformed = new TreeMap<>();
        Map<String, List<double[][]>> centers = new LinkedHashMap<>();
        long records = 0;
        long valid = 0;
        for (int w = 0; w < windows; w++) {
            for (int si = 0; si < streams.size(); si++) {
                StreamSpec s = streams.get(si);
                DriftingGaussianMixture mix = mixture(s, si);
                centers.computeIfAbsent(s.id(), x -> new ArrayList<>()).add(mix.centers(w));
                long windowStart = startMillis + w * s.windowMillis();
                double[][] x = mix.sample(w, recordsPerWindow);
                int malformedEvery =
                        malformedPerWindow == 0
                                ? Integer.MAX_VALUE
                                : recordsPerWindow / (malformedPerWindow + 1);
                int injected = 0;
                for (int r = 0; r < recordsPerWindow; r++) {
                    long t = windowStart + (long) ((r + 0.5) * s.windowMillis() / recordsPerWindow);
                    out.send(s.id(), "device-" + (r % devices), t, x[r]);
                    records++;
                    valid++;
                    if (injected < malformedPerWindow && (r + 1) % malformedEvery == 0) {
                        String reason = injectMalformed(out, s, t, injected);
                        malformed.merge(reason, 1L, Long::sum);
                        injected++;
                        records++;
                    }
                }
            }
        }
        out.flush();
        return new Written(records, valid, malformed, centers);
    }

    /**
     * Writes the scenario in real time, for a live job on the log append-time clock
     * (docs/event-time.md): window i's records at the wall-clock instant {@code first + i·size}
     * (size = the longest stream window, first = the next boundary of it), with event times in that
     * window, so their event times match the append times the broker gives them. Window i is the
     * one-window scenario of seed {@code seed + i}; the start given to the constructor is not used.
     * Sleeps between windows.
     */
    public Written writeRealtime(TelemetryProducer out) throws InterruptedException {
        long size = streams.stream().mapToLong(StreamSpec::windowMillis).max().orElseThrow();
        long first = Math.floorDiv(System.currentTimeMillis(), size) * size + size;
        long records = 0;
        long valid = 0;
        Map<String, Long> malformed = new TreeMap<>();
        Map<String, List<double[][]>> centers = new LinkedHashMap<>();
        for (int i = 0; i < windows; i++) {
            long at = first + i * size;
            long wait = at - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            Written w =
                    new SyntheticTelemetry(
                                    streams,
                                    at,
                                    1,
                                    recordsPerWindow,
                                    malformedPerWindow,
                                    devices,
                                    seed + i)
                            .write(out);
            records += w.records();
            valid += w.valid();
            w.malformedByReason().forEach((k, v) -> malformed.merge(k, v, Long::sum));
            w.trueCenters()
                    .forEach(
                            (k, v) -> centers.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        }
        return new Written(records, valid, malformed, centers);
    }

    /**
     * Writes one malformed record of the i-th kind (cycling through every kind); returns its
     * reason.
     */
    private static String injectMalformed(TelemetryProducer out, StreamSpec s, long t, int i) {
        switch (i % 4) {
            case 0 -> {
                out.sendRaw(s.id(), ("not avro " + i).getBytes(StandardCharsets.UTF_8));
                return Rejections.UNDECODABLE;
            }
            case 1 -> {
                out.send(s.id(), "device-bad", t, new double[s.dimension() + 1]);
                return Rejections.WRONG_DIMENSION;
            }
            case 2 -> {
                double[] v = new double[s.dimension()];
                v[0] = Double.NaN;
                out.send(s.id(), "device-bad", t, v);
                return Rejections.NON_FINITE;
            }
            default -> {
                out.send("no-such-stream", "device-bad", t, new double[s.dimension()]);
                return Rejections.UNKNOWN_STREAM;
            }
        }
    }
}
