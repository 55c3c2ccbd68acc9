package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ZcdpTest {
    /** δ(ρ, ε) of CKS20 Cor. 13, minimised here by brute force over a log grid of α in (1, 1e6]. */
    private static double deltaByGrid(double rho, double eps) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= 200_000; i++) {
            double a = 1 + Math.pow(10, -8 + 14.0 * i / 200_000);
            double logd = (a - 1) * (a * rho - eps) - Math.log(a - 1) + a * Math.log(1 - 1 / a);
            best = Math.min(best, logd);
        }
        return Math.exp(best);
    }

    @Test
    void bs16MatchesClosedFormAndItsInverse() {
        double rho = 0.981;
        double delta = 1e-9;
        double l = Math.log(1e9);
        assertEquals(rho + 2 * Math.sqrt(rho * l), Zcdp.epsilonBs16(rho, delta), 1e-12);
        // closed-form inverse: eps = rho + 2 sqrt(rho L)  <=>  rho = (sqrt(L + eps) - sqrt(L))^2
        double eps = 10;
        double rhoBs = Math.pow(Math.sqrt(l + eps) - Math.sqrt(l), 2);
        assertEquals(eps, Zcdp.epsilonBs16(rhoBs, delta), 1e-9);
        // the cap uses the tighter conversion, so it admits at least the BS16 rho
        assertTrue(Zcdp.rhoCap(eps, delta) >= rhoBs * (1 - 1e-8));
    }

    @Test
    void cksAgreesWithABruteForceGridAndIsTighterThanBs16() {
        double[][] cases = {{0.981, 1e-9}, {1e-4, 1e-6}, {0.5, 1e-3}, {5, 1e-5}};
        for (double[] c : cases) {
            double rho = c[0];
            double delta = c[1];
            double eps = Zcdp.epsilonCks(rho, delta);
            assertTrue(eps <= Zcdp.epsilonBs16(rho, delta), "rho " + rho);
            assertEquals(Math.min(eps, Zcdp.epsilonBs16(rho, delta)), Zcdp.epsilon(rho, delta));
            // at that eps the brute-force delta is delta (the two forms describe one curve)
            double grid = deltaByGrid(rho, eps);
            assertEquals(delta, grid, delta * 1e-3, "rho " + rho);
            assertEquals(grid, Zcdp.deltaCks(rho, eps), grid * 1e-3, "rho " + rho);
        }
    }

    @Test
    void rhoCapIsTheLargestRhoWithinTheCap() {
        for (double[] c : new double[][] {{10, 1e-9}, {1, 1e-6}, {0.1, 1e-5}}) {
            double rho = Zcdp.rhoCap(c[0], c[1]);
            assertTrue(Zcdp.epsilon(rho, c[1]) <= c[0]);
            assertTrue(Zcdp.epsilon(rho * (1 + 1e-6), c[1]) > c[0] * (1 - Zcdp.CAP_MARGIN));
            // independently: the grid delta at the cap's epsilon is within delta
            assertTrue(deltaByGrid(rho, c[0]) <= c[1] * (1 + 1e-6));
        }
    }

    @Test
    void pureIsHalfEpsilonSquared() {
        assertEquals(0.5, Zcdp.pureToRho(1.0));
        assertEquals(0.005, Zcdp.pureToRho(0.1), 1e-18);
        assertThrows(IllegalArgumentException.class, () -> Zcdp.pureToRho(0));
        assertThrows(IllegalArgumentException.class, () -> Zcdp.rhoCap(1, 0));
        assertThrows(IllegalArgumentException.class, () -> Zcdp.rhoCap(1, 1));
    }
}
