package org.dpclust.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CkmExperimentTest {

    /** The paper's Figure 3 mixture (d = k = 10, m = 1000) decoded from a noiseless sketch. */
    @Test
    void noiselessSketchRecoversTheTenDimensionalMixture() {
        CkmExperiment.Cell cell = CkmExperiment.run(20_000, 1.0, Double.POSITIVE_INFINITY, 1, 31);
        System.out.println("CL-OMPR k=d=10 noiseless: " + cell.summary());
        assertTrue(cell.medianRelativeSse() <= 1.05, cell.summary());
        assertEquals(1, cell.relativeSse().length);
    }
}
