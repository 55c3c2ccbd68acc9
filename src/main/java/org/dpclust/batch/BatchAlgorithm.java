package org.dpclust.batch;

import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;

/**
 * A clustering algorithm that runs on a bounded snapshot. Implementations are plain Java (no
 * Flink), are registered in {@link BatchAlgorithms} by {@link #name()}, and state in their Javadoc
 * which output is private, for which neighbouring relation and with which sensitivity.
 *
 * <p>Labels (docs/privacy.md#guarantee-labels): {@link Guarantee#DP} — ε-DP end to end, declared
 * bounds; {@link Guarantee#PAPER_CLAIMED} — the paper's algorithm as written, whose own privacy
 * argument is weak; {@link Guarantee#EPP} — batch-only EPP output; {@link Guarantee#NONE} — a
 * non-private reference, whose output must never reach the published centroids topic and never
 * charges the ledger.
 *
 * <p>No data-dependent failure after a charge. A run is charged to the ledger BEFORE the algorithm
 * sees the snapshot ({@link SnapshotRelease}); so every check that can fail is a check of public
 * parameters, made in {@link #checkParams} before the charge, and {@link #run} of a private
 * algorithm must return a release for EVERY snapshot of in-bounds points: empty, one record, fewer
 * than k records, all records equal, records on the box's boundary. A failure there would publish
 * neither a release nor a budget status, and whether it happens (e.g. n &lt; k) would be
 * observable. Degenerate inputs are handled inside the mechanism (noisy statistics are still
 * released; an empty cluster keeps its public initial centroid).
 */
public interface BatchAlgorithm {
    /** Registry name, e.g. {@code lloyd}, {@code stats}. */
    String name();

    /** The guarantee its releases state. */
    Guarantee guarantee();

    /** Whether the output is a privacy mechanism's output (anything but {@link Guarantee#NONE}). */
    default boolean isPrivate() {
        return guarantee() != Guarantee.NONE;
    }

    /**
     * Whether a run needs declared bounds (or a public universe): every private algorithm but EPP,
     * which calibrates nothing to bounds (its number of bags comes from the partition's own
     * moments). Bounds computed from the data would void the guarantee.
     */
    default boolean needsDeclaredBounds() {
        return isPrivate() && guarantee() != Guarantee.EPP;
    }

    /**
     * Name of the noise mechanism, part of the release's noise key ({@link
     * org.dpclust.privacy.ReleaseContext}).
     */
    default String mechanism() {
        return name() + "-v1";
    }

    /**
     * Checks the public parameters this algorithm needs (declared bounds, ε, a universe ...),
     * before anything is charged; each problem is an {@link IllegalArgumentException} whose message
     * starts with the option that sets the parameter. Never looks at data. The default accepts
     * everything.
     */
    default void checkParams(BatchParams params) {}

    /**
     * Runs on the snapshot. For a private algorithm whose {@link #checkParams} passed this returns
     * a release for every snapshot of in-bounds points, whatever its size (see the class comment).
     *
     * @param snapshot the snapshot's points (n x d, private data; clamped into the declared bounds
     *     by the caller when bounds are declared); not modified
     * @param params public parameters
     * @param rng the release's privacy randomness (keyed by the snapshot's digest); null for
     *     non-private algorithms, which must not use it
     */
    BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng);
}
