package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.dpclust.ledger.PrivacyLedger;
import org.junit.jupiter.api.Test;

class PublicIntervalTest {
    @Test
    void parsesBothEnds() {
        PrivacyLedger.Interval i =
                PublicInterval.parse("2026-03-01T00:00:00Z", "2026-03-01T00:10:00Z");
        assertEquals(Instant.parse("2026-03-01T00:00:00Z").toEpochMilli(), i.start());
        assertEquals(600_000L, i.end() - i.start());
    }

    @Test
    void errorsNameTheOption() {
        String t = "2026-03-01T00:00:00Z";
        assertError("--from", null, t);
        assertError("--to", t, null);
        assertError("--from", "yesterday", t);
        assertError("--to", t, "tomorrow");
        assertError("--to", t, t);
        assertError("--to", "2026-03-02T00:00:00Z", t);
    }

    private static void assertError(String option, String from, String to) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PublicInterval.parse(from, to));
        assertTrue(e.getMessage().startsWith(option + ":"), e.getMessage());
    }
}
