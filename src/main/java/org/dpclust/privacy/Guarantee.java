package org.dpclust.privacy;

import java.util.Locale;

/**
 * The guarantee a release states (the {@code guarantee} field of every release record and run
 * report; docs/privacy.md#guarantee-labels). Only {@link #DP} output is ever published to Kafka or
 * charged to a ledger (batch {@code PublishPolicy}); the others go to files, for comparison with
 * the papers. Serialise with {@link #wireName()}.
 */
public enum Guarantee {
    /** Differential privacy proven here: sensitivities derived in javadoc, a DP test each. */
    DP,
    /** The guarantee a paper claims, not established here (e.g. a bound assumed, not enforced). */
    PAPER_CLAIMED,
    /** Error-preserving privacy (EPP, Nguyen et al. 2016): not differential privacy. */
    EPP,
    /** No privacy: a non-private baseline. */
    NONE;

    /** The wire spelling: {@code dp}, {@code paper-claimed}, {@code epp}, {@code none}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
        return wireName();
    }
}
