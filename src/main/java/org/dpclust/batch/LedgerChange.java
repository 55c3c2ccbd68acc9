package org.dpclust.batch;

import java.util.Map;
import org.dpclust.privacy.PrivacyLedger;

/**
 * What one batch run did to a stream's ledger, from the ledger as read before and after the run
 * (interval key → charged total, as the budget topic holds it): whether the run's interval was
 * charged (its total grew; a refused run leaves it unchanged), the interval's total after, and the
 * stream's spend in the budget period of the interval's start, replayed through a {@link
 * PrivacyLedger} with the stream's cap and period. Everything here is public (the ledger is
 * published).
 *
 * @param charged whether the interval's total grew
 * @param intervalTotal the interval's charged total after the run
 * @param spent the stream's spend in the budget period containing the interval's start, after
 */
public record LedgerChange(boolean charged, double intervalTotal, double spent) {

    /**
     * Compares the two readings.
     *
     * @param cap the stream's budget cap
     * @param periodMillis the stream's budget period
     */
    public static LedgerChange between(
            Map<String, Double> before,
            Map<String, Double> after,
            PrivacyLedger.Interval interval,
            double cap,
            long periodMillis) {
        double totalBefore = before.getOrDefault(interval.key(), 0.0);
        double totalAfter = after.getOrDefault(interval.key(), 0.0);
        PrivacyLedger ledger = new PrivacyLedger(cap, periodMillis, false);
        after.forEach((key, v) -> ledger.restore(PrivacyLedger.Interval.parse(key), v));
        return new LedgerChange(
                totalAfter > totalBefore, totalAfter, ledger.spent(interval.start()));
    }
}
