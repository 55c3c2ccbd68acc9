package org.dpclust.privacy;

import java.util.Locale;

/**
 * The guarantee a release states (the {@code guarantee} field of every release record and run
 * report; docs/privacy.md). Only {@link #DP} releases are published to the release topics by
 * default; the others exist for comparison with the papers.
 */
public enum Guarantee {
    /** Differential privacy proven here: sensitivities derived in javadoc, a DP test each. */
    DP,
    /** The guarantee a paper claims, not established here (e.g. a bound assumed, not enforced). */
    PAPER_CLAIMED,
    /** Extended privacy preservation (EPP): the paper's weaker, non-DP notion. */
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
