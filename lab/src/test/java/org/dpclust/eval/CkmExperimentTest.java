package org.dpclust.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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

    @Test
    void gridReturnsCellsAlphaMajorOnSharedData() {
        List<CkmExperiment.Cell> cells =
                CkmExperiment.grid(
                        2_000,
                        new double[] {1.0, 0.5},
                        new double[] {Double.POSITIVE_INFINITY},
                        1,
                        5,
                        1);
        assertEquals(2, cells.size());
        assertEquals(1.0, cells.get(0).alphaR());
        assertEquals(0.5, cells.get(1).alphaR());
        for (CkmExperiment.Cell c : cells) {
            assertTrue(c.medianRelativeSse() >= 0.99 && c.medianRelativeSse() < 3, c.summary());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> CkmExperiment.grid(2_000, new double[] {0.0}, new double[] {1.0}, 1, 5, 1));
    }
}
