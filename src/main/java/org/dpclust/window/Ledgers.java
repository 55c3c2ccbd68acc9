package org.dpclust.window;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.privacy.PrivacyLedger;

/**
 * A stream's {@link PrivacyLedger} as operators keep it: a map from interval key ({@link
 * PrivacyLedger.Interval#key()}) to the epsilon charged for it. Rebuilds the ledger from those
 * entries and says which entries a charge makes obsolete (intervals that ended before the charged
 * interval's budget period), so state holds only the current period.
 */
public final class Ledgers {
    private Ledgers() {}

    /** The stream's ledger with the given entries restored. */
    public static PrivacyLedger restore(StreamSpec s, Iterable<Map.Entry<String, Double>> entries) {
        PrivacyLedger ledger =
                new PrivacyLedger(
                        s.cap(), s.budgetPeriodMillis(), s.privacyUnit() == PrivacyUnit.DEVICE);
        for (Map.Entry<String, Double> e : entries) {
            ledger.restore(PrivacyLedger.Interval.parse(e.getKey()), e.getValue());
        }
        return ledger;
    }

    /** The entry to store after {@code charged} was accepted: its key and its new total. */
    public static Map.Entry<String, Double> entry(
            PrivacyLedger ledger, PrivacyLedger.Interval charged) {
        return Map.entry(charged.key(), ledger.entries().get(charged));
    }

    /** Of {@code keys}, those of intervals that ended before the charged interval's period. */
    public static List<String> expired(
            PrivacyLedger ledger, PrivacyLedger.Interval charged, Iterable<String> keys) {
        long periodStart = ledger.periodStart(charged.start());
        List<String> old = new ArrayList<>();
        for (String k : keys) {
            if (PrivacyLedger.Interval.parse(k).end() <= periodStart) {
                old.add(k);
            }
        }
        return old;
    }
}
