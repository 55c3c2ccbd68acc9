package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.dpclust.ledger.PrivacyLedger.Interval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link RunningBudget} against {@link PrivacyLedger} fed the whole history: the same decisions
 * while charges land in the exact region, never an acceptance the reference refuses outside it, and
 * a state that stays within its bounds however long the history.
 */
class RunningBudgetTest {
    private static final long W = 10_000L;
    private static final long PERIOD = 60 * W;
    private static final int BOUND =
            RunningBudget.MAX_STEPS + 2 * RunningBudget.MAX_PERIODS + RunningBudget.MAX_TOTALS;

    private static Interval window(long i) {
        return new Interval(i * W, (i + 1) * W);
    }

    private static PrivacyLedger reference(boolean device, double lifetime) {
        return reference(device, lifetime, PERIOD);
    }

    private static PrivacyLedger reference(boolean device, double lifetime, long period) {
        return new PrivacyLedger(
                1.0, period, device, org.dpclust.privacy.Accounting.PURE, Double.NaN, lifetime);
    }

    @ParameterizedTest
    @CsvSource({"false, Infinity", "true, Infinity", "false, 2.5", "true, 40"})
    void aStreamsWindowsAreDecidedExactlyAsByTheWholeHistory(boolean device, double lifetime) {
        PrivacyLedger ref = reference(device, lifetime);
        RunningBudget rb = new RunningBudget(PERIOD, device);
        SplittableRandom rnd = new SplittableRandom(7);
        int refused = 0;
        for (long w = 0; w < 3_000; w++) {
            for (int summary = 0; summary < 3; summary++) {
                double eps = device ? 0.01 + rnd.nextDouble() * 0.03 : 0.1 + rnd.nextDouble() * 0.4;
                Interval i = window(w);
                if (rnd.nextInt(50) == 0) { // a batch run over the last few windows
                    i = new Interval((w - rnd.nextInt(1, 20)) * W, (w + 1) * W);
                }
                PrivacyLedger.Decision expected = ref.charge(i, eps);
                PrivacyLedger.Decision got = rb.decide(ref, i, new BigDecimal(eps));
                assertEquals(expected.accepted(), got.accepted(), "charge " + w + "/" + summary);
                assertEquals(expected.spent(), got.spent(), 1e-9);
                assertEquals(expected.intervalTotal(), got.intervalTotal(), 1e-9);
                assertEquals(expected.lifetime(), got.lifetime());
                assertEquals(expected.periodStart(), got.periodStart());
                if (got.accepted()) {
                    rb.add(i, new BigDecimal(eps));
                } else {
                    refused++;
                }
            }
        }
        assertTrue(refused > 0, "the cap was reached: " + refused + " refusals");
        assertTrue(rb.size() <= BOUND, "state size " + rb.size());
    }

    @ParameterizedTest
    @CsvSource({
        "false, Infinity, 60",
        "true, Infinity, 60",
        "false, 3, 60",
        "true, 60, 60",
        "false, Infinity, 600",
        "false, 4, 600"
    })
    void chargesReachingBackNeverSpendMoreThanTheWholeHistoryAllows(
            boolean device, double lifetime, long periodWindows) {
        long period = periodWindows * W;
        PrivacyLedger ref = reference(device, lifetime, period);
        RunningBudget rb = new RunningBudget(period, device);
        SplittableRandom rnd = new SplittableRandom(11);
        int conservative = 0;
        int accepted = 0;
        // device units keep one bound per period for the latest MAX_PERIODS periods: reach back
        // beyond them to exercise the shared bound of older ones
        long windows = device ? 6_000 : 4_000;
        int back = device ? (int) (80 * periodWindows) : 500;
        for (long w = 0; w < windows; w++) {
            double eps =
                    device
                            ? (0.005 + rnd.nextDouble() * 0.02) * 60 / periodWindows
                            : 0.05 + rnd.nextDouble() * 0.3;
            Interval i = window(w);
            if (rnd.nextInt(8) == 0) { // batch runs reaching back up to 500 windows
                long from = Math.max(0, w - rnd.nextInt(1, back));
                i = new Interval(from * W, (from + rnd.nextInt(1, 300)) * W);
            }
            PrivacyLedger.Decision got = rb.decide(ref, i, new BigDecimal(eps));
            if (got.accepted()) {
                PrivacyLedger.Decision expected = ref.charge(i, eps);
                assertTrue(expected.accepted(), "accepted what the whole history refuses: " + i);
                assertTrue(got.spent() >= expected.spent() - 1e-12, "spent under-counted");
                rb.add(i, new BigDecimal(eps));
                accepted++;
            } else if (ref.charge(i, eps).accepted()) {
                ref = undo(ref, i, eps, device, lifetime, period);
                conservative++;
            }
        }
        assertTrue(accepted > 1_000, "accepted " + accepted);
        assertTrue(conservative > 0, "reaching back was decided conservatively at least once");
        assertTrue(rb.size() <= BOUND, "state size " + rb.size());
    }

    /** The reference without the charge it just accepted (it must follow the budget's history). */
    private static PrivacyLedger undo(
            PrivacyLedger ref,
            Interval i,
            double eps,
            boolean device,
            double lifetime,
            long period) {
        PrivacyLedger copy = reference(device, lifetime, period);
        ref.entries()
                .forEach(
                        (k, v) -> {
                            double t = k.equals(i) ? v - eps : v;
                            if (t > 1e-15) {
                                copy.restore(k, t);
                            }
                        });
        return copy;
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void aYearOfWindowsKeepsTheStateBounded(boolean device) {
        long period = 8_640 * W; // a day of 10-s windows
        RunningBudget rb = new RunningBudget(period, device);
        PrivacyLedger limits =
                new PrivacyLedger(
                        device ? 100 : 1.0,
                        period,
                        device,
                        org.dpclust.privacy.Accounting.PURE,
                        Double.NaN,
                        Double.POSITIVE_INFINITY);
        BigDecimal eps = new BigDecimal("0.0078125");
        for (long w = 0; w < 40 * 8_640; w++) {
            assertTrue(rb.decide(limits, window(w), eps).accepted(), "window " + w);
            rb.add(window(w), eps);
        }
        assertTrue(
                rb.size() <= RunningBudget.MAX_TOTALS + RunningBudget.MAX_PERIODS + 8,
                "windows charged alike leave a few breakpoints: " + rb.size());
        PrivacyLedger.Decision d = rb.decide(limits, window(40 * 8_640), eps);
        assertEquals(0.0078125, d.spent(), 0.0);
        assertFalse(rb.decide(limits, new Interval(0, W), new BigDecimal(200)).accepted());
    }

    /** Review: a batch run whose interval was typed as next year starved the stream's windows. */
    @Test
    void aFarFutureBatchDoesNotStarveTheWindows() {
        long day = 86_400_000L;
        PrivacyLedger ref =
                new PrivacyLedger(
                        1.0,
                        day,
                        false,
                        org.dpclust.privacy.Accounting.PURE,
                        Double.NaN,
                        Double.POSITIVE_INFINITY);
        RunningBudget rb = new RunningBudget(day, false);
        Interval future = new Interval(400 * day, 401 * day);
        assertTrue(rb.decide(ref, future, new BigDecimal("0.125")).accepted());
        rb.add(future, new BigDecimal("0.125"));
        for (long d = 0; d < 100; d++) {
            for (long k = 0; k < 4; k++) { // 0.5 a day against a cap of 1.0 a day
                Interval i = new Interval(d * day + k * W, d * day + (k + 1) * W);
                assertTrue(rb.decide(ref, i, new BigDecimal("0.125")).accepted(), "day " + d);
                rb.add(i, new BigDecimal("0.125"));
            }
        }
    }

    /** Review: a daily batch run over the last week was refused from day 15 on. */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void aDailyBatchOverTheLastWeekIsNotRefusedByOldPeriods(boolean device) {
        long day = 86_400_000L;
        PrivacyLedger ref =
                new PrivacyLedger(
                        1.0,
                        day,
                        device,
                        org.dpclust.privacy.Accounting.PURE,
                        Double.NaN,
                        Double.POSITIVE_INFINITY);
        RunningBudget rb = new RunningBudget(day, device);
        for (long d = 7; d < 200; d++) { // 7 x 0.125 per day, well past MAX_PERIODS
            Interval i = new Interval((d - 7) * day, d * day);
            assertTrue(ref.charge(i, 0.125).accepted());
            assertTrue(rb.decide(ref, i, new BigDecimal("0.125")).accepted(), "day " + d);
            rb.add(i, new BigDecimal("0.125"));
        }
        assertTrue(rb.size() <= BOUND, "state size " + rb.size());
    }

    /** A charge into a forgotten period raises the shared bound: the next one there is refused. */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void chargesIntoForgottenPeriodsAddUp(boolean device) {
        PrivacyLedger ref = reference(device, Double.POSITIVE_INFINITY);
        RunningBudget rb = new RunningBudget(PERIOD, device);
        Interval old = window(0);
        rb.add(old, new BigDecimal("0.5"));
        for (int p = 1; p <= RunningBudget.MAX_PERIODS + 5; p++) {
            rb.add(window(p * 60L), new BigDecimal("0.125"));
        }
        assertTrue(rb.decide(ref, old, new BigDecimal("0.375")).accepted(), "0.875 of 1");
        rb.add(old, new BigDecimal("0.375"));
        assertFalse(
                rb.decide(ref, window(1), new BigDecimal("0.25")).accepted(),
                "the forgotten period holds 0.875 already");
    }
}
