package org.dpclust.kmedian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.dpclust.eval.Dataset;
import org.dpclust.eval.DomainScaling;
import org.dpclust.geometry.VectorMetric;
import org.junit.jupiter.api.Test;

class KMedianExperimentTest {

    @Test
    void runsEveryMethodOnASmallLabelledDataSet() {
        double[][] p = HstInitializerTest.clusters(10, 12, 6);
        int[] labels = new int[p.length];
        Arrays.setAll(labels, i -> i / 12);
        Dataset data = new Dataset("toy", p, labels, DomainScaling.none());
        int[] imb = KMedianExperiment.demandSet(data, "imbalanced", 30, 1);
        assertEquals(24, imb.length); // only 24 points carry labels 0 and 8
        assertTrue(Arrays.stream(imb).allMatch(i -> labels[i] == 0 || labels[i] == 8));
        assertTrue(
                KMedianExperiment.diameterBound(p, VectorMetric.l2(p))
                        >= VectorMetric.l2(p).exactDiameter());
        KMedianExperiment.Settings s =
                new KMedianExperiment.Settings(
                        20,
                        new int[] {2, 5},
                        2,
                        1.0,
                        5,
                        1e-3,
                        20,
                        8,
                        7,
                        List.of("balanced", "imbalanced"),
                        List.of("l1", "l2"),
                        KMedianExperiment.METHODS);
        List<KMedianExperiment.Row> rows = KMedianExperiment.runMnist(data, s);
        assertEquals(2 * 2 * 2 * 6, rows.size());
        for (KMedianExperiment.Row r : rows) {
            assertTrue(r.initialCost() > 0 && r.finalCost() > 0, r.toJson());
            if (r.method().startsWith("NDP")) {
                assertTrue(
                        r.finalCost() <= r.initialCost() + 1e-6,
                        r.toJson()); // local search never worsens
            }
        }
    }
}
