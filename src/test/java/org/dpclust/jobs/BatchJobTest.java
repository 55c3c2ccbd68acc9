package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.batch.BatchAlgorithms;
import org.junit.jupiter.api.Test;

/**
 * What the Kafka batch job may publish: dp and paper-claimed releases only, never epp or
 * non-private output.
 */
class BatchJobTest {
    @Test
    void onlyPrivateNonEppAlgorithmsArePublishable() {
        assertDoesNotThrow(() -> BatchJob.requirePublishable(BatchAlgorithms.get("stats")));
        for (String name : new String[] {"lloyd", "epp-1", "epp-2"}) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> BatchJob.requirePublishable(BatchAlgorithms.get(name)));
            assertTrue(e.getMessage().startsWith("--output kafka"), e.getMessage());
        }
    }
}
