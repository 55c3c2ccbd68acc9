package org.dpclust.batch;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.dpclust.ledger.PrivacyLedger;

/**
 * The public event-time interval [from, to) of a batch run over a topic ({@code --from}/{@code
 * --to}, ISO-8601 instants): the interval the ledger is charged for, never derived from data. Every
 * problem is an {@link IllegalArgumentException} naming the option.
 */
public final class PublicInterval {
    private PublicInterval() {}

    /**
     * Parses both ends; both must be given and {@code to} must be after {@code from}.
     *
     * @param from {@code --from}, or null when not given
     * @param to {@code --to}, or null when not given
     */
    public static PrivacyLedger.Interval parse(String from, String to) {
        if (from == null || to == null) {
            throw new IllegalArgumentException(
                    (from == null ? "--from" : "--to")
                            + ": a kafka input needs the public event-time interval --from/--to");
        }
        long start = instant("--from", from);
        long end = instant("--to", to);
        if (end <= start) {
            throw new IllegalArgumentException("--to: must be after --from");
        }
        return new PrivacyLedger.Interval(start, end);
    }

    private static long instant(String option, String value) {
        try {
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    option
                            + ": '"
                            + value
                            + "' is not an ISO-8601 instant (e.g. 2026-01-01T00:00:00Z)",
                    e);
        }
    }
}
