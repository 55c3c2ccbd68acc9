package org.dpclust.privacy;

/**
 * How a stream's ledger composes its releases (docs/zcdp.md).
 *
 * <ul>
 *   <li>{@link #PURE}: every release is pure ε-DP and the ledger adds ε's (basic composition).
 *   <li>{@link #ZCDP}: every release is charged as ρ-zCDP (a Gaussian release by its ρ, a pure ε
 *       release as ε²/2) and the ledger adds ρ's; the cap is an (ε, δ) pair converted to a ρ cap by
 *       {@link Zcdp#rhoCap}.
 * </ul>
 */
public enum Accounting {
    PURE,
    ZCDP;

    /** The configuration spelling: {@code pure} or {@code zcdp}. */
    public String configName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
