package org.dpclust.window;

import java.nio.charset.StandardCharsets;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.dpclust.privacy.testing.TestRandoms;

/** Stream specs for the window core's tests. */
final class WindowTestSpecs {
    private WindowTestSpecs() {}

    /** All three summaries. */
    static final String ALL = "    summaries: [stats, ckm, dp-hst]\n    hst: {universe: 64}\n";

    /** A 2-d stream (stats only unless {@code extra} says otherwise); {@code extra} is appended. */
    static StreamSpec spec(String extra) {
        return ConfigLoader.parse(
                        """
                streams:
                  - id: s
                    dimension: 2
                    lower: [0, 0]
                    upper: [1, 1]
                    k: 2
                    window: PT10S
                    epsilon_per_release: 1.0
                    public_seed: 5
                    stats: {cells: 16}
                """
                                + extra)
                .streams()
                .get(0);
    }

    /** Summaries of a window with {@code records} records in two tight groups. */
    static WindowSummaries window(StreamRuntime rt, long start, int records) {
        WindowSummaries w = WindowSummaries.empty(rt, TestRandoms.SECRET, start);
        for (int i = 0; i < records; i++) {
            double c = i % 2 == 0 ? 0.25 : 0.75;
            w.add(new double[] {c + 0.001 * (i % 7), c - 0.001 * (i % 5)}, identity(i));
        }
        return w;
    }

    /** A record's identity bytes (keys its sketch mask). */
    static byte[] identity(int i) {
        return ("record-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
