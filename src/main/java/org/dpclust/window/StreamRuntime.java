package org.dpclust.window;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.config.HstSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmeans.SnapshotStatistics;
import org.dpclust.kmedian.HstWindowSummary;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * The public objects of one stream derived from its configuration: fixed-point codec, the
 * statistics partition, the initial centroids, the sketch's frequency matrix ({@code ckm} only) and
 * the HST universe ({@code dp-hst} only). Everything here is public (built from the spec and its
 * public seed); operators rebuild it in {@code open} and never checkpoint it.
 */
public record StreamRuntime(
        StreamSpec spec,
        FixedPointCodec codec,
        PublicPointSet cells,
        double[][] initial,
        FrequencyMatrix frequencies,
        HstWindowSummary hst) {

    /** The stream's public objects, derived from its spec. */
    public static StreamRuntime of(StreamSpec s) {
        DomainBounds b = new DomainBounds(s.lower(), s.upper());
        double[][] init =
                s.initialCentroids() != null
                        ? s.initialCentroids()
                        : SnapshotStatistics.publicInitialCentroids(b, s.k(), s.publicSeed());
        HstWindowSummary hst =
                s.summaries().contains(Summary.DP_HST)
                        ? new HstWindowSummary(
                                b,
                                s.hstUniverse(),
                                s.publicSeed(),
                                s.hstMaxLevels(),
                                snapRule(s.hst()))
                        : null;
        return new StreamRuntime(
                s,
                new FixedPointCodec(b),
                PublicPointSet.uniform(b, s.statsCells(), s.publicSeed()),
                init,
                frequencies(s),
                hst);
    }

    /** The dp-hst snap rule a stream's {@code hst.snap} names. */
    static HstWindowSummary.Snap snapRule(HstSettings hst) {
        return hst.pivot() ? HstWindowSummary.Snap.PIVOT : HstWindowSummary.Snap.NEAREST;
    }

    /**
     * The sketch's public frequency matrix, drawn from the spec's public seed; null without {@code
     * ckm}.
     */
    public static FrequencyMatrix frequencies(StreamSpec s) {
        return s.summaries().contains(Summary.CKM)
                ? FrequencyMatrix.draw(
                        s.ckm().m(),
                        s.dimension(),
                        s.ckm().sigma(),
                        s.ckm().law().equals("gaussian")
                                ? FrequencyMatrix.Law.GAUSSIAN
                                : FrequencyMatrix.Law.ADAPTED_RADIUS,
                        s.publicSeed())
                : null;
    }

    /** The public objects of every stream, by stream id. */
    public static Map<String, StreamRuntime> of(List<StreamSpec> streams) {
        Map<String, StreamRuntime> m = new HashMap<>();
        for (StreamSpec s : streams) {
            m.put(s.id(), of(s));
        }
        return m;
    }
}
