package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.TestStreams;
import org.dpclust.ledger.PrivacyLedger;
import org.junit.jupiter.api.Test;

class KafkaRunReportTest {
    private static final DpclustConfig CONFIG = TestStreams.config("fleet", 1.5);
    private static final PrivacyLedger.Interval INTERVAL =
            new PrivacyLedger.Interval(1_772_323_200_000L, 1_772_323_800_000L);

    private static KafkaRunReport report(boolean charged) {
        return new KafkaRunReport(
                BatchAlgorithms.get("stats"),
                CONFIG.stream("fleet").orElseThrow(),
                INTERVAL,
                1.0,
                new LedgerChange(charged, 1.0, charged ? 1.0 : 1.25),
                CONFIG.kafka());
    }

    @Test
    void theSummaryStatesTheDecisionTheIntervalAndTheSpend() {
        Map<String, Object> s = report(true).summary();
        assertEquals(
                List.of(
                        "status",
                        "algorithm",
                        "guarantee",
                        "stream_id",
                        "from",
                        "to",
                        "epsilon",
                        "interval_total",
                        "spent",
                        "cap",
                        "centroids_topic",
                        "budget_topic"),
                List.copyOf(s.keySet()));
        assertEquals("charged", s.get("status"));
        assertEquals("2026-03-01T00:00:00Z", s.get("from"));
        assertEquals("2026-03-01T00:10:00Z", s.get("to"));
        assertEquals(CONFIG.kafka().budgetTopic(), s.get("budget_topic"));
        assertEquals("refused", report(false).summary().get("status"));
    }

    @Test
    void theLineSaysWhatWasReleasedOrThatNothingWas() {
        String released = report(true).line();
        assertTrue(released.startsWith("released stats (dp) for stream fleet"), released);
        assertTrue(released.contains("spent 1.00000 of cap 1.5"), released);
        String refused = report(false).line();
        assertTrue(
                refused.startsWith("REFUSED:") && refused.contains("nothing was released"),
                refused);
        assertTrue(refused.contains("spent 1.25000"), refused);
    }
}
