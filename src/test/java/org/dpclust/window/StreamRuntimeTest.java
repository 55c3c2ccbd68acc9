package org.dpclust.window;

import static org.dpclust.window.WindowTestSpecs.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.kmedian.HstWindowSummary;
import org.junit.jupiter.api.Test;

/** The stream's public objects follow its configuration. */
class StreamRuntimeTest {
    @Test
    void theHstSummarySnapsByTheConfiguredRule() {
        for (String snap : new String[] {"nearest", "pivot"}) {
            StreamRuntime rt =
                    StreamRuntime.of(
                            spec(
                                    "    budget_cap: 10\n    summaries: [dp-hst]\n    hst: {universe: 64, snap: "
                                            + snap
                                            + "}\n"));
            assertEquals(
                    HstWindowSummary.Snap.valueOf(snap.toUpperCase(java.util.Locale.ROOT)),
                    rt.hst().snapRule(),
                    snap);
        }
        assertEquals(
                HstWindowSummary.Snap.PIVOT,
                StreamRuntime.of(
                                spec(
                                        "    budget_cap: 10\n    summaries: [dp-hst]\n    hst: {universe: 64}\n"))
                        .hst()
                        .snapRule());
    }
}
