package org.dpclust.batch;

import java.util.Arrays;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.AccumulatorDigest;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.ReleaseContext;

/**
 * One batch release over a snapshot, in plain Java: check the public parameters ({@link
 * BatchAlgorithm#checkParams}), charge the ledger (private algorithms only), then run the algorithm
 * with privacy randomness keyed by the snapshot's contents. Both the Flink batch topology and the
 * file path call this; neither holds algorithm code.
 *
 * <p>Privacy: the ledger is charged for the PUBLIC interval given by the caller (never a
 * data-derived span); a refused charge runs nothing. The noise key is HMAC(secret, stream, interval
 * start, algorithm, mechanism and all public parameters, digest of the sorted snapshot), so a
 * replay of the same snapshot gets byte-identical noise and a different snapshot independent noise
 * (docs/privacy.md#keyed-randomness). Sorting makes the key and the algorithm input independent of
 * arrival order.
 *
 * <p>Failure happens only before the charge: every check that can fail looks at public parameters
 * and runs before the ledger is touched; after an accepted charge a private algorithm returns a
 * release for every snapshot, whatever its size (the contract of {@link BatchAlgorithm#run}), so
 * whether the snapshot has fewer than k records, or any records, is not observable from whether a
 * release and a budget status are published.
 */
public final class SnapshotRelease {
    private SnapshotRelease() {}

    /**
     * @param decision the ledger's decision, or null when nothing was charged (non-private
     *     algorithm, or no ledger for an offline file run)
     * @param result the algorithm's output, or null when the charge was refused
     */
    public record Outcome(PrivacyLedger.Decision decision, BatchResult result) {
        public boolean refused() {
            return decision != null && !decision.accepted();
        }
    }

    /**
     * Charges the ledger for a release. The Flink batch job's implementation is the stream's fenced
     * ledger writer ({@code ledger.KafkaLedgerClient}): the decision it returns is committed on the
     * budget topic before the algorithm runs, so a release is never published without its charge.
     */
    @FunctionalInterface
    public interface Charger {
        PrivacyLedger.Decision charge(PrivacyLedger.Interval interval, double epsilon);
    }

    /**
     * @param snapshot the snapshot's points (private); sorted in place into a canonical order
     * @param ledger the stream's ledger, or null for an offline run that charges nothing
     * @param secret the privacy secret (required for private algorithms)
     */
    public static Outcome run(
            BatchAlgorithm algorithm,
            BatchParams params,
            double[][] snapshot,
            String streamId,
            PrivacyLedger.Interval interval,
            PrivacyLedger ledger,
            PrivacySecret secret) {
        return runCharged(
                algorithm,
                params,
                snapshot,
                streamId,
                interval,
                ledger == null ? null : ledger::charge,
                secret);
    }

    /**
     * As {@link #run}, charging through {@code charger} (null: an offline run that charges
     * nothing). The charge comes first; a refused charge runs nothing.
     */
    public static Outcome runCharged(
            BatchAlgorithm algorithm,
            BatchParams params,
            double[][] snapshot,
            String streamId,
            PrivacyLedger.Interval interval,
            Charger charger,
            PrivacySecret secret) {
        if (snapshot.length == 0 && !algorithm.isPrivate()) {
            throw new IllegalArgumentException(
                    "the snapshot of stream '" + streamId + "' is empty");
        }
        algorithm.checkParams(params);
        if (algorithm.isPrivate() && secret == null) {
            throw new IllegalArgumentException(
                    "algorithm " + algorithm.name() + " needs the privacy secret");
        }
        PrivacyLedger.Decision decision = null;
        if (algorithm.isPrivate() && charger != null) {
            decision = charger.charge(interval, params.epsilon());
            if (!decision.accepted()) {
                return new Outcome(decision, null);
            }
        }
        Arrays.sort(snapshot, SnapshotRelease::compareLexicographically);
        PrivacyRandom rng = null;
        if (algorithm.isPrivate()) {
            AccumulatorDigest digest = new AccumulatorDigest().add(snapshot.length);
            for (double[] p : snapshot) {
                digest.add(p);
            }
            rng =
                    PrivacyRandom.forRelease(
                            secret,
                            new ReleaseContext(
                                    streamId,
                                    interval.start(),
                                    "batch/" + algorithm.name() + "/" + interval.key(),
                                    // every public parameter shapes the noise: a re-run at another
                                    // epsilon must get other bits
                                    algorithm.mechanism() + params,
                                    digest.digest()));
        }
        return new Outcome(decision, algorithm.run(snapshot, params, rng));
    }

    private static int compareLexicographically(double[] a, double[] b) {
        return Arrays.compare(a, b);
    }
}
