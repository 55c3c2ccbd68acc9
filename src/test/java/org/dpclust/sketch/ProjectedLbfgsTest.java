package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class ProjectedLbfgsTest {

    private static final ProjectedLbfgs.Objective ROSENBROCK =
            (x, g) -> {
                double a = 1 - x[0];
                double b = x[1] - x[0] * x[0];
                g[0] = -2 * a - 400 * x[0] * b;
                g[1] = 200 * b;
                return a * a + 100 * b * b;
            };

    @Test
    void quadraticWithActiveBounds() {
        // min (x-2)^2 + (y+1)^2 over [0,1]^2 is at (1, 0)
        double[] x =
                ProjectedLbfgs.minimize(
                        (p, g) -> {
                            g[0] = 2 * (p[0] - 2);
                            g[1] = 2 * (p[1] + 1);
                            return (p[0] - 2) * (p[0] - 2) + (p[1] + 1) * (p[1] + 1);
                        },
                        new double[] {0.3, 0.7},
                        new double[] {0, 0},
                        new double[] {1, 1},
                        100,
                        1e-12);
        assertArrayEquals(new double[] {1, 0}, x, 1e-12);
    }

    @Test
    void rosenbrockUnconstrained() {
        double inf = Double.POSITIVE_INFINITY;
        double[] x =
                ProjectedLbfgs.minimize(
                        ROSENBROCK,
                        new double[] {-1.2, 1},
                        new double[] {-inf, -inf},
                        new double[] {inf, inf},
                        2000,
                        1e-15);
        assertArrayEquals(new double[] {1, 1}, x, 1e-4);
    }

    @Test
    void rosenbrockWithUpperBound() {
        // with x <= 0.5 the minimum is on the bound at (0.5, 0.25)
        double inf = Double.POSITIVE_INFINITY;
        double[] x =
                ProjectedLbfgs.minimize(
                        ROSENBROCK,
                        new double[] {-1.2, 1},
                        new double[] {-inf, -inf},
                        new double[] {0.5, inf},
                        2000,
                        1e-15);
        assertArrayEquals(new double[] {0.5, 0.25}, x, 1e-5);
    }

    @Test
    void startOutsideTheBoxIsProjected() {
        double[] x =
                ProjectedLbfgs.minimize(
                        (p, g) -> {
                            g[0] = 2 * p[0];
                            return p[0] * p[0];
                        },
                        new double[] {-5},
                        new double[] {0.25},
                        new double[] {3},
                        10,
                        1e-12);
        assertArrayEquals(new double[] {0.25}, x, 0.0);
    }
}
