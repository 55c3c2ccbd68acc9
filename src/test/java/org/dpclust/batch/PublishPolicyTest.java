package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a batch run may publish to Kafka and charge to a stream's ledger: dp output only. */
class PublishPolicyTest {
    @Test
    void everyRegisteredAlgorithmIsPublishableExactlyWhenItIsDp() {
        for (String name : BatchAlgorithms.names()) {
            BatchAlgorithm a = BatchAlgorithms.get(name);
            assertEquals(
                    org.dpclust.privacy.Guarantee.DP.equals(a.guarantee()),
                    PublishPolicy.publishable(a),
                    name);
            if (PublishPolicy.publishable(a)) {
                PublishPolicy.requirePublishable(a);
                continue;
            }
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> PublishPolicy.requirePublishable(a));
            assertTrue(
                    e.getMessage().startsWith("--output kafka: algorithm '" + name + "'"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }
    }

    @Test
    void paperClaimedEppAndNonPrivateAreEachRefusedWithTheirReason() {
        String[][] cases = {
            {"expdp-past-paper", "paper-claimed"},
            {"gupt-paper", "paper-claimed"},
            {"dp-km", "paper-claimed"},
            {"epp-1", "error-preserving privacy"},
            {"lloyd", "non-private"},
            {"kmedian++", "non-private"}
        };
        for (String[] c : cases) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> PublishPolicy.requirePublishable(BatchAlgorithms.get(c[0])));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }
}
