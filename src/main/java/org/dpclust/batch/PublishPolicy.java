package org.dpclust.batch;

import org.dpclust.privacy.Guarantee;

/**
 * Which batch output may reach a stream's published topics and charge its {@code dp} ledger: only
 * output whose guarantee is {@link org.dpclust.privacy.Guarantee#DP}. This is the ONE check for it;
 * the CLI calls it at start-up and the batch job ({@code jobs.BatchJob}) at construction.
 *
 * <ul>
 *   <li>{@link org.dpclust.privacy.Guarantee#NONE}: exact, non-private output;
 *   <li>{@link org.dpclust.privacy.Guarantee#EPP}: error-preserving privacy, not differential
 *       privacy;
 *   <li>{@link org.dpclust.privacy.Guarantee#PAPER_CLAIMED}: a paper's algorithm as written, whose
 *       real privacy loss is unbounded (e.g. exact sampling zones are published), so charging its
 *       nominal ε to the stream's ledger would make the ledger's {@code spent} no bound on the
 *       {@code dp} releases of the same records.
 * </ul>
 *
 * Each is refused with one line that starts with {@code --output kafka}; all stay available for
 * file output and {@code evaluate}.
 */
public final class PublishPolicy {
    private PublishPolicy() {}

    /** Whether output of {@code algorithm} may be published to Kafka and charged to a ledger. */
    public static boolean publishable(BatchAlgorithm algorithm) {
        return algorithm.guarantee() == Guarantee.DP;
    }

    /**
     * Refuses an algorithm whose output may not be published.
     *
     * @throws IllegalArgumentException one line naming {@code --output kafka}, the algorithm, its
     *     guarantee and the way out
     */
    public static void requirePublishable(BatchAlgorithm algorithm) {
        if (publishable(algorithm)) {
            return;
        }
        String why =
                switch (algorithm.guarantee()) {
                    case EPP -> "gives error-preserving privacy (epp), not differential privacy";
                    case PAPER_CLAIMED ->
                            "is paper-claimed (the paper's algorithm as written, not differential"
                                    + " privacy: its real privacy loss is unbounded)";
                    case NONE -> "is non-private (guarantee none)";
                    case DP -> throw new IllegalStateException("dp is publishable");
                };
        throw new IllegalArgumentException(
                "--output kafka: algorithm '"
                        + algorithm.name()
                        + "' "
                        + why
                        + "; only dp output is published to a stream's topics or charged to its"
                        + " ledger, use --output DIR"
                        + (algorithm.guarantee() == Guarantee.PAPER_CLAIMED
                                ? " (or --mode strict where the algorithm has a strict form)"
                                : ""));
    }
}
