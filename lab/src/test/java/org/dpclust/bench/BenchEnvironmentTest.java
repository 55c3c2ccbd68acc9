package org.dpclust.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link BenchEnvironment#differenceNanos}: resolves real differences, never clamps noise. */
class BenchEnvironmentTest {
    private static long sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ms;
    }

    @Test
    void aRealDifferenceResolvesToItsSizePerUnit() {
        // full does 2 units of 3 ms each beyond base
        BenchEnvironment.PerUnit p =
                BenchEnvironment.differenceNanos(
                        0, 3, () -> sleepMillis(1), () -> sleepMillis(7), () -> 2, 1e6, 8);
        assertTrue(p.resolved(), p.toString());
        assertEquals(1, p.batch(), p.toString());
        assertTrue(p.nanosPerUnit() >= 2.5e6 && p.nanosPerUnit() < 50e6, p.toString());
    }

    @Test
    void noDifferenceIsUnresolvedAfterTheLargestBatchNeverClamped() {
        BenchEnvironment.PerUnit same =
                BenchEnvironment.differenceNanos(
                        1, 3, () -> sleepMillis(1), () -> sleepMillis(1), () -> 1, 50e6, 4);
        assertFalse(same.resolved(), same.toString());
        assertEquals(4, same.batch(), same.toString());

        // base slower than full: a negative difference, reported as such, not as 1 ns
        BenchEnvironment.PerUnit negative =
                BenchEnvironment.differenceNanos(
                        0, 3, () -> sleepMillis(3), () -> 0L, () -> 1, 1, 2);
        assertFalse(negative.resolved(), negative.toString());
        assertTrue(negative.nanosPerUnit() < 0, negative.toString());
        assertTrue(
                BenchEnvironment.unresolved(negative, 1).contains("too small to resolve"),
                BenchEnvironment.unresolved(negative, 1));
    }

    @Test
    void zeroUnitsOfWorkIsUnresolved() {
        BenchEnvironment.PerUnit p =
                BenchEnvironment.differenceNanos(
                        0, 1, () -> 0L, () -> sleepMillis(2), () -> 0, 1, 2);
        assertFalse(p.resolved(), p.toString());
    }
}
