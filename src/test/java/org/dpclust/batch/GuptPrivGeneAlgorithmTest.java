package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/**
 * The strict forms never refuse a snapshot for its size (that would reveal it); paper mode needs k
 * records.
 */
class GuptPrivGeneAlgorithmTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {1, 1});
    private static final double[][] TWO = {{0.2, 0.3}, {0.8, 0.7}};

    @Test
    void strictFormsRunOnFewerRecordsThanKAndStayInTheBox() {
        for (String name : new String[] {"gupt", "privgene"}) {
            BatchResult r =
                    new GuptPrivGeneAlgorithm(name, true)
                            .run(
                                    TWO,
                                    new BatchParams(3, 1.0, BOX, 7, 1, 16, 0.1, 1),
                                    TestRandoms.stream("small-" + name));
            assertEquals(3, r.centroids().length, name);
            for (double[] c : r.centroids()) {
                assertTrue(c[0] >= 0 && c[0] <= 1 && c[1] >= 0 && c[1] <= 1, name);
            }
        }
    }

    @Test
    void paperFormsNeedKRecords() {
        for (String name : new String[] {"gupt", "privgene"}) {
            assertThrows(
                    IllegalArgumentException.class,
                    () ->
                            new GuptPrivGeneAlgorithm(name, false)
                                    .run(
                                            TWO,
                                            new BatchParams(3, 1.0, BOX, 7, 1, 16, 0.1, 1),
                                            TestRandoms.stream("paper-" + name)));
        }
    }
}
