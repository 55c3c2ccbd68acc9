package org.dpclust.config;

import java.io.Serializable;

/**
 * Public settings of a stream's compressive k-means ({@code ckm}) summary: the frequency matrix
 * (size m, law, scale σ in unit-box coordinates, drawn from the stream's public seed), the mask
 * size r (α_r = r/m) and the budget split of the sketch release. None of these may be computed from
 * the data.
 *
 * @param countFraction share of a release's ε for the noisy count; NaN = the derived default
 */
public record CkmSettings(
        int m, int r, String law, double sigma, double countFraction, int replicates)
        implements Serializable {}
