package org.dpclust.kmeans;

import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.PrivacyRandom;

/**
 * The strict convergent-zone update of a window's statistics summary (a stream's {@code
 * stats.update: expdp-zone}): instead of {@link DpClusterStatistics}'s weighted Lloyd on the noisy
 * cells, each centroid moves as one strict ExpDP step (docs/algorithms.md#sampling-zone, {@link
 * ZoneOrientation#PAST}).
 *
 * <p><b>Privacy: post-processing only.</b> The input is the window's release {@link
 * DpClusterStatistics#noise} (its noise, sensitivities and budget are those of the plain update,
 * unchanged) and the previous window's RELEASED centroids S^(t−1) (or the stream's public initial
 * centroids). From them: the usable noisy cells (noisy count ≥ 3× the count noise scale) are
 * assigned to their nearest S^(t−1)_i by their noisy means, which gives each cluster a noisy count
 * (Σ of its cells' noisy counts) and a noisy mean S^(t)_i (the noisy-count weighted mean of its
 * cells' clamped noisy means, i.e. Σ noisy sums / Σ noisy counts up to clamping); then {@link
 * SamplingZone#past}(S^(t−1)_i, S^(t)_i) and the draw in it with the release's ε as the sampling
 * parameter, clamped into the box. Every input of the zone is released or public, so the update
 * costs no privacy. A cluster without usable cells keeps S^(t−1)_i.
 *
 * <p><b>Convergent zone.</b> The draw lies in the ball around S^(t)_i of radius ‖S^(t−1)_i −
 * S^(t)_i‖ (Def. 5; {@link SamplingZone}'s zone is inside it); clamping into the box, which is
 * convex and contains S^(t)_i, cannot leave that ball.
 *
 * <p><b>Randomness.</b> The zone's γ, λ and the draw come from the release's own {@link
 * PrivacyRandom} (keyed by the release context and the accumulator digest), continuing after the
 * noise, so a replayed window draws the same bits and its output is byte-identical.
 */
public final class ConvergentZoneUpdate {
    private ConvergentZoneUpdate() {}

    /**
     * Per-cluster noisy counts (k) and noisy means S^(t) (k×d; S^(t−1)_i for a cluster without
     * cells).
     */
    public record ClusterMeans(double[] counts, double[][] means) {}

    /** The clusters' noisy counts and means from the usable noisy cells (see the class comment). */
    static ClusterMeans clusterMeans(
            DpClusterStatistics.NoisyCells noisy, FixedPointCodec codec, double[][] previous) {
        DpClusterStatistics.UsableCells usable = DpClusterStatistics.usableCells(noisy, codec);
        int k = previous.length;
        int d = codec.bounds().dimension();
        PublicPointSet released = new PublicPointSet(previous);
        double[] counts = new double[k];
        double[][] sums = new double[k][d];
        for (int c = 0; c < usable.cells().length; c++) {
            double[] loc = usable.locations()[c];
            int i = released.nearest(loc);
            counts[i] += usable.weights()[c];
            for (int j = 0; j < d; j++) {
                sums[i][j] += usable.weights()[c] * loc[j];
            }
        }
        double[][] means = new double[k][];
        for (int i = 0; i < k; i++) {
            if (counts[i] <= 0) {
                means[i] = previous[i].clone();
                continue;
            }
            means[i] = new double[d];
            for (int j = 0; j < d; j++) {
                means[i][j] = sums[i][j] / counts[i];
            }
        }
        return new ClusterMeans(counts, means);
    }

    /**
     * The update (post-processing of {@code noisy} and the released {@code previous}, see the class
     * comment).
     *
     * @param samplingEpsilon the ε parameter of the draw's density exp(ε q/4): the release's ε
     */
    public static DpClusterStatistics.Release apply(
            DpClusterStatistics.NoisyCells noisy,
            FixedPointCodec codec,
            double[][] previous,
            double samplingEpsilon,
            PrivacyRandom rng) {
        // ---- post-processing: only noisy values and released or public centroids below this line
        // ----
        ClusterMeans cm = clusterMeans(noisy, codec, previous);
        DomainBounds box = codec.bounds();
        double[][] out = new double[previous.length][];
        for (int i = 0; i < out.length; i++) {
            out[i] =
                    SamplingZone.past(previous[i], cm.means()[i], rng).sample(samplingEpsilon, rng);
            box.clamp(out[i], out[i]);
        }
        Map<String, Double> params =
                DpClusterStatistics.parameters(
                        noisy,
                        box.dimension(),
                        DpClusterStatistics.usableCells(noisy, codec).cells().length);
        params.put("expdp_zone_update", 1.0);
        return new DpClusterStatistics.Release(out, cm.counts(), params);
    }
}
