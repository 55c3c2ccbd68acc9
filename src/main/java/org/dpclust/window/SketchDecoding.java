package org.dpclust.window;

import java.util.Map;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.config.CkmSettings;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.Guarantee;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * The {@code ckm} centroids of a released DP sketch: pure post-processing of public data. Reads
 * only the released sketch, its public parameters and ledger decision, and the stream's public
 * configuration (frequencies from the public seed, k, bounds); CL-OMPR's starting points are seeded
 * by {@code public_seed + window start}. Reads no secret, adds no noise, charges nothing, and is
 * deterministic: a replayed sketch decodes to the same bytes. With {@code ckm.warm_start} the
 * decode also starts from the stream's previous released centroids ({@link ClOmpr.WarmStart}),
 * public too, so a replay of the same sequence of released sketches decodes to the same bytes.
 */
public final class SketchDecoding {
    private SketchDecoding() {}

    /**
     * A decoded release and the warm start it leaves for the stream's next window.
     *
     * @param release the {@code ckm} centroid release
     * @param next its unit centroids and relative residual
     */
    public record Decoded(CentroidRelease release, ClOmpr.WarmStart next) {}

    /**
     * The {@code ckm} release of one released sketch: the centroids CL-OMPR decodes from it, their
     * weights scaled to estimated records, the sketch's noise parameters plus the decoder's
     * residual norm.
     */
    public static CentroidRelease release(StreamSpec s, FrequencyMatrix f, ReleasedSketch r) {
        return release(s, f, r, null).release();
    }

    /**
     * {@link #release(StreamSpec, FrequencyMatrix, ReleasedSketch)} decoded from {@code warm} (the
     * stream's previous {@link Decoded#next}; null decodes cold, the same bytes as that method).
     */
    public static Decoded release(
            StreamSpec s, FrequencyMatrix f, ReleasedSketch r, ClOmpr.WarmStart warm) {
        CkmSettings c = s.ckm();
        ClOmpr.Result decoded =
                ClOmpr.decode(
                        r.sketch,
                        f,
                        s.k(),
                        new DomainBounds(s.lower(), s.upper()),
                        new ClOmpr.Options(
                                c.replicates(),
                                ClOmpr.Options.defaults(0).candidates(),
                                ClOmpr.Options.defaults(0).maxIterations(),
                                s.publicSeed() + r.windowStart),
                        warm);
        double[] weights = new double[decoded.weights().length];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = decoded.weights()[i] * r.divisor; // estimated records per centroid
        }
        Map<String, Double> params = r.parameters();
        params.put("decode_residual_norm", decoded.residualNorm());
        CentroidRelease release =
                ReleaseAssembler.release(
                        s,
                        Summary.CKM.wireName(),
                        WindowRelease.MODE,
                        Guarantee.DP,
                        r.windowStart,
                        r.windowEnd,
                        1,
                        new ReleasedCentroids(decoded.centroids(), weights, params),
                        r.charged());
        return new Decoded(
                release,
                new ClOmpr.WarmStart(
                        decoded.unitCentroids(), ClOmpr.relativeResidual(decoded, r.sketch)));
    }
}
