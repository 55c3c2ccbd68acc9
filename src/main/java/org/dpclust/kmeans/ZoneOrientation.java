package org.dpclust.kmeans;

/**
 * The orientation controller of Lu &amp; Shen's sampling zone (paper 000, Algorithm 2;
 * docs/algorithms.md#orientation-names).
 *
 * <p>The paper names the two strategies inconsistently: §6.1 calls the past-knowledge zone "prior",
 * but §7.1, Figs. 9–10 and the conclusions use the reverse, which is the naming its experiments
 * (and our reports) follow:
 *
 * <ul>
 *   <li>{@link #PAST}: past knowledge only (the direction S^(t−1) → S^(t)) — the paper's Fig. 9
 *       "Posterior";
 *   <li>{@link #PAST_FUTURE}: past and future knowledge (the convergent zone from the past, the
 *       controller X = S^(t+1) from one extra Lloyd step) — the paper's Fig. 10 "Prior".
 * </ul>
 */
public enum ZoneOrientation {
    PAST("past", "Posterior (Fig. 9)"),
    PAST_FUTURE("past_future", "Prior (Fig. 10)");

    private final String id;
    private final String paperLabel;

    ZoneOrientation(String id, String paperLabel) {
        this.id = id;
        this.paperLabel = paperLabel;
    }

    /** snake_case identifier used in names, reports and JSON rows. */
    public String id() {
        return id;
    }

    /** The paper's figure label for this strategy (§7 naming). */
    public String paperLabel() {
        return paperLabel;
    }
}
