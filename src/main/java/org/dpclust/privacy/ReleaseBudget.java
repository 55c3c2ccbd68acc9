package org.dpclust.privacy;

import java.io.Serializable;
import java.util.function.DoubleFunction;

/**
 * The privacy budget of one release, as a type: either {@link Pure} ε-DP (Laplace, geometric,
 * exponential mechanisms) or {@link Zcdp} ρ-zCDP (discrete Gaussian mechanisms) — never a NaN
 * sentinel for "the other kind". A streaming window release (and the running tree) is charged to
 * the ledger with this value and its mechanism is calibrated from the same value, so what is
 * charged is what is noised. (Batch releases still charge a bare ε through their own charger.)
 *
 * <p>Both amounts are public (configuration). Construction validates them: a finite ε &gt; 0, a
 * finite ρ &gt; 0 ({@link #requireEpsilon}, {@link #requireRho}, also used by mechanisms that take
 * a bare ε or ρ).
 */
public sealed interface ReleaseBudget extends Serializable
        permits ReleaseBudget.Pure, ReleaseBudget.Zcdp {

    /** How the ledger composes this release: {@link Accounting#PURE} or {@link Accounting#ZCDP}. */
    Accounting accounting();

    /**
     * The one place a caller tells the two kinds apart (Java 17 has no pattern switch): {@code
     * pure} applied to ε, or {@code zcdp} applied to ρ.
     */
    <T> T match(DoubleFunction<T> pure, DoubleFunction<T> zcdp);

    /** A pure ε-DP release. */
    record Pure(double epsilon) implements ReleaseBudget {
        public Pure {
            requireEpsilon(epsilon);
        }

        @Override
        public Accounting accounting() {
            return Accounting.PURE;
        }

        @Override
        public <T> T match(DoubleFunction<T> pure, DoubleFunction<T> zcdp) {
            return pure.apply(epsilon);
        }

        @Override
        public String toString() {
            return "epsilon " + epsilon;
        }
    }

    /** A ρ-zCDP release (under {@code accounting: zcdp}). */
    record Zcdp(double rho) implements ReleaseBudget {
        public Zcdp {
            requireRho(rho);
        }

        @Override
        public Accounting accounting() {
            return Accounting.ZCDP;
        }

        @Override
        public <T> T match(DoubleFunction<T> pure, DoubleFunction<T> zcdp) {
            return zcdp.apply(rho);
        }

        @Override
        public String toString() {
            return "rho " + rho;
        }
    }

    /**
     * Returns {@code epsilon} if it is a finite number &gt; 0.
     *
     * @throws IllegalArgumentException otherwise (NaN included)
     */
    static double requireEpsilon(double epsilon) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, was " + epsilon);
        }
        return epsilon;
    }

    /**
     * Returns {@code rho} if it is a finite number &gt; 0.
     *
     * @throws IllegalArgumentException otherwise (NaN included)
     */
    static double requireRho(double rho) {
        if (!(rho > 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("rho must be finite and > 0, was " + rho);
        }
        return rho;
    }
}
