package org.dpclust.batch;

import org.dpclust.privacy.PrivacyRandom;

/**
 * A clustering algorithm that runs on a bounded snapshot. Implementations are plain Java (no
 * Flink), are registered in {@link BatchAlgorithms} by {@link #name()}, and state in their Javadoc
 * which output is private, for which neighbouring relation and with which sensitivity.
 *
 * <p>Labels (docs/privacy.md#guarantee-labels): {@value #DP} — ε-DP end to end, declared bounds;
 * {@value #PAPER_CLAIMED} — the paper's algorithm as written, whose own privacy argument is weak;
 * {@value #EPP} — batch-only EPP output; {@value #NONE} — a non-private reference, whose output
 * must never reach the published centroids topic and never charges the ledger.
 */
public interface BatchAlgorithm {
    String DP = "dp";
    String PAPER_CLAIMED = "paper-claimed";
    String EPP = "epp";
    String NONE = "none";

    /** Registry name, e.g. {@code lloyd}, {@code stats}. */
    String name();

    /** One of {@value #DP}, {@value #PAPER_CLAIMED}, {@value #EPP}, {@value #NONE}. */
    String guarantee();

    /** Whether the output is a privacy mechanism's output (anything but {@value #NONE}). */
    default boolean isPrivate() {
        return !NONE.equals(guarantee());
    }

    /**
     * Name of the noise mechanism, part of the release's noise key ({@link
     * org.dpclust.privacy.ReleaseContext}).
     */
    default String mechanism() {
        return name() + "-v1";
    }

    /**
     * Runs on the snapshot.
     *
     * @param snapshot the snapshot's points (n x d, private data; clamped into the declared bounds
     *     by the caller when bounds are declared); not modified
     * @param params public parameters
     * @param rng the release's privacy randomness (keyed by the snapshot's digest); null for
     *     non-private algorithms, which must not use it
     */
    BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng);
}
