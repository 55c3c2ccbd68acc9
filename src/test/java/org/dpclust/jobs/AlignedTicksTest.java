package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AlignedTicksTest {
    private static final long M = AlignedTicks.MARGIN_MILLIS;

    @Test
    void lets_each_tick_go_just_after_a_multiple_of_the_interval() {
        AlignedTicks.Limiter l = new AlignedTicks.Limiter(1_000);
        assertEquals(5_000 + M, l.next(4_300)); // not 4_300 + 1_000: the next multiple
        assertEquals(6_000 + M, l.next(5_000 + M)); // asked again at once: the following slot
        assertEquals(7_000 + M, l.next(6_900));
        assertEquals(7_000 + M, new AlignedTicks.Limiter(1_000).next(7_000 + M)); // on the instant
        assertEquals(7_000 + M, new AlignedTicks.Limiter(1_000).next(7_000)); // before the margin
    }

    @Test
    void a_missed_slot_is_skipped_not_made_up() {
        AlignedTicks.Limiter l = new AlignedTicks.Limiter(500);
        assertEquals(1_000 + M, l.next(700));
        // the machine was busy for 2.2 s: the next tick goes at the next slot, not four at once
        assertEquals(3_500 + M, l.next(3_210));
        assertEquals(4_000 + M, l.next(3_600));
    }

    @Test
    void never_two_in_a_slot_and_never_more_than_an_interval_late() {
        SplittableRandom r = new SplittableRandom(11);
        for (long interval : new long[] {100, 250, 1_000, 60_000}) {
            AlignedTicks.Limiter l = new AlignedTicks.Limiter(interval);
            long now = 1_764_000_000_000L + r.nextLong(interval);
            long last = Long.MIN_VALUE;
            for (int i = 0; i < 10_000; i++) {
                long at = l.next(now);
                assertEquals(M, Math.floorMod(at, interval), "on a multiple + margin");
                assertTrue(at >= now, "never before it is asked");
                assertTrue(at > last, "one per slot");
                assertTrue(at - Math.max(now, last) <= interval + M, "at the next free slot");
                last = at;
                now = at + r.nextLong(2 * interval); // the element took some time, or not
            }
        }
    }

    @Test
    void refuses_a_non_positive_interval() {
        assertThrows(IllegalArgumentException.class, () -> new AlignedTicks(0));
    }
}
