package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.config.StreamSpec;
import org.dpclust.stream.StreamTestRecords;
import org.junit.jupiter.api.Test;

/** The public time rules: inclusion by the record alone, the schedule, the closing. */
class EventTimePolicyTest {
    private static final long W = 10_000;
    private static final StreamSpec S = StreamTestRecords.spec("");
    // schedule from 25 s (first window 30 s) to 100 s; lateness 5 s; future 2 s
    private static final EventTimePolicy P = new EventTimePolicy(25_000, 100_000, 5_000, 2_000);

    @Test
    void aRecordCountsIffItsEventTimeIsWithinTheBoundsOfItsOwnAppendTime() {
        long a = 50_000;
        assertNull(P.exclusion(S, a, a, true));
        assertNull(P.exclusion(S, a - 5_000, a, true), "exactly max_lateness before");
        assertEquals(Rejections.LATE, P.exclusion(S, a - 5_001, a, true));
        assertNull(P.exclusion(S, a + 2_000, a, true), "exactly max_future after");
        assertEquals(Rejections.FUTURE, P.exclusion(S, a + 2_001, a, true));
        assertEquals(Rejections.FUTURE, P.exclusion(S, Long.MAX_VALUE / 2, a, true));
        assertEquals(Rejections.LATE, P.exclusion(S, Long.MIN_VALUE / 2, a, true));
        assertEquals(Rejections.NOT_APPEND_TIME, P.exclusion(S, a, a, false));
    }

    @Test
    void windowsOffTheScheduleDoNotCount() {
        assertEquals(30_000, P.firstWindow(S), "the first window starting at or after start");
        assertEquals(30_000, new EventTimePolicy(30_000, 100_000, 0, 0).firstWindow(S));
        assertEquals(Rejections.BEFORE_START, P.exclusion(S, 29_999, 29_999, true));
        assertNull(P.exclusion(S, 30_000, 30_000, true));
        assertNull(P.exclusion(S, 99_999, 99_999, true), "window [90 s, 100 s) ends by end");
        assertEquals(Rejections.AFTER_END, P.exclusion(S, 100_000, 100_000, true));
        assertTrue(P.scheduled(S, 90_000));
        assertFalse(P.scheduled(S, 100_000));
        assertFalse(P.scheduled(S, 20_000));
        assertTrue(new EventTimePolicy(0, Long.MAX_VALUE, 0, 0).scheduled(S, 1L << 50));
        assertFalse(new EventTimePolicy(0, Long.MAX_VALUE, 0, 0).hasEnd());
    }

    @Test
    void aWindowClosesMaxLatenessAfterItsEndAfterEveryRecordThatCountsInIt() {
        long close = P.closeTime(S, 30_000);
        assertEquals(40_000 - 1 + 5_000, close);
        assertEquals(30_000, P.windowOfCloseTime(S, close));
        // the latest append time of a record counted in [30 s, 40 s): t = 39.999 s, a = t + 5 s
        assertNull(P.exclusion(S, 39_999, close, true));
        assertEquals(Rejections.LATE, P.exclusion(S, 39_999, close + 1, true));
        assertEquals(30_000, S.windowStart(39_999));
    }

    @Test
    void withoutStateTheScheduleResumesAfterTheLastChargedInterval() {
        assertEquals(30_000, P.resumeWindow(S, Long.MIN_VALUE), "no ledger: the first window");
        assertEquals(60_000, P.resumeWindow(S, 60_000), "after the last interval");
        assertEquals(30_000, P.resumeWindow(S, 10_000), "never before the first window");
        assertEquals(50_000, P.resumeWindow(S, 45_000), "the next whole window");
    }

    @Test
    void eachTimerChainsTheNextScheduledWindowUpToTheEnd() {
        assertEquals(P.closeTime(S, 40_000), P.nextCloseTime(S, 30_000, false));
        assertEquals(P.closeTime(S, 90_000), P.nextCloseTime(S, 80_000, true), "bounded: to end");
        assertEquals(-1, P.nextCloseTime(S, 90_000, false), "[90 s, 100 s) is the last window");
        EventTimePolicy open = new EventTimePolicy(0, Long.MAX_VALUE, 0, 0);
        assertEquals(open.closeTime(S, 10_000), open.nextCloseTime(S, 0, false));
        assertEquals(-1, open.nextCloseTime(S, 0, true), "no end: the chain stops at end of input");
    }
}
