package org.dpclust.kmeans;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.testing.DpTester;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statistical DP test of PrivGene's selection ({@link PrivGeneKMeans#select}: the exact grid-unit
 * SSE utility, its sensitivity Σ_j width_j² and the exponential mechanism; tier {@code dp}). Every
 * one of PrivGene's data accesses is such a selection at a share of ε fixed by the public schedule
 * ({@link PrivGeneKMeans.Schedule#total} = ε is checked in the unit tests), so this is the
 * mechanism under test.
 *
 * <p>Pair: D = ∅ versus D' = {x} with x at the box's lower corner, over a public population of 20
 * candidates (k = 1): 10 at x (SSE 0 on D') and 10 at the opposite corner (SSE = Δu, the whole
 * sensitivity). All utilities move one way under add/remove, so a selection at ε_sel has loss at
 * most ε_sel/2 (the normaliser and the numerator cannot both move against the output; see {@link
 * org.dpclust.kmedian.DpLocalSearch}); the test is at that bound: calibrated ε_sel = 1 tested at
 * 0.5, and halved noise (ε_sel = 2) must fail at 0.5. The bimodal population puts half the mass on
 * each side so both tails of the loss are frequent. Statistic: the selected index's side
 * (discrete). A full GA run is not tested statistically: its populations are uniform public draws,
 * on which the loss of every selection concentrates far inside its bound.
 */
@Tag("dp")
class PrivGeneKMeansDpTest {
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, -1}, new double[] {2, 0});

    @Test
    void theSelectionPassesCalibratedAndFailsWithHalvedNoise() {
        List<double[][]> population = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            population.add(new double[][] {i % 2 == 0 ? BOX.lowerCopy() : BOX.upperCopy()});
        }
        double[][] empty = {};
        double[][] one = {BOX.lowerCopy()};
        DpTester.assertCalibratedPassesAndHalvedFails(
                "privgene-selection",
                1.0,
                0.5,
                DpTester.Options.defaults(),
                true,
                (neighbour, eps, rng) ->
                        PrivGeneKMeans.select(neighbour ? one : empty, population, BOX, eps, rng)
                                % 2);
    }
}
