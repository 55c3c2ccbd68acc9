package org.dpclust.batch;

import java.util.HashMap;
import java.util.Map;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.Guarantee;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.sketch.ClOmpr;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;
import org.dpclust.sketch.MaskedSketch;

/**
 * {@code ckm}: compressive k-means on a snapshot — the whole snapshot is sketched into one {@link
 * MaskedSketch} with m = {@link FrequencyMatrix#defaultSize 10·k·d} frequencies of the default law
 * and the default σ rule of {@link FrequencyMatrix#defaultSigma} (σ = k^{−1/d}/(1.25·√d) in
 * unit-box coordinates of the declared bounds: a function of k and d only, never of the data),
 * drawn from {@link BatchParams#seed()}; the sketch is released with {@link
 * DpSketchRelease#addRemove} (the default count share of ε, {@link
 * DpSketchRelease#defaultCountFraction}; {@link BatchParams#countFraction()} belongs to {@code
 * stats} and is not used) and {@link ClOmpr} decodes k centroids from it with its default options,
 * seeded by the public seed. Guarantee {@link org.dpclust.privacy.Guarantee#DP}: ε-DP under
 * add/remove of one unit of at most {@link BatchParams#contributionBound()} records — sum L1
 * sensitivity c·r·⌊√2·2^24 + 1⌋ fixed-point units, count sensitivity c — because the frequencies,
 * the bounds and the decoder's inputs are public; the decode is post-processing. Declared bounds
 * are required.
 *
 * <p>Masks: every record uses all m features (r = m, α_r = 1). {@link BatchAlgorithm#run} receives
 * only the release's {@link PrivacyRandom}, which is keyed by the digest of the whole snapshot, and
 * a batch snapshot carries no record identities: masks keyed by either would change for every
 * record when one record is added, which breaks the per-record sensitivity the release relies on. r
 * = m needs no key and gives the best utility; masks (α_r &lt; 1) only save sketching time, which
 * matters in the stream, not here.
 *
 * <p>Output weights are the decoder's mixture weights (summing to 1) times the released noisy count
 * (at least 1): post-processing of released values.
 */
public final class CkmAlgorithm implements BatchAlgorithm {
    @Override
    public String name() {
        return "ckm";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DP;
    }

    @Override
    public String mechanism() {
        return "ckm-sketch-geometric-v1";
    }

    /**
     * The largest k³·d² decoded: {@link ClOmpr} runs 2k steps whose joint fits cost m·k·d per
     * gradient with m = 10·k·d, so its time grows about as k³·d² (measured on 2 cores: 14 s at k =
     * 32, d = 10; 36 s at k = 32, d = 20; 81 s at k = 64, d = 10 — docs/algorithms.md#cl-ompr). The
     * bound keeps a decode under about a minute; it is a function of the public k and d only (never
     * of the snapshot's size, which a refusal would reveal).
     */
    public static final double MAX_DECODE_COST = 1.6e7;

    @Override
    public void checkParams(BatchParams params) {
        BaselineAlgorithm.requireBoundsAndEpsilon(this, params);
        double k = params.k();
        int d = params.bounds().dimension();
        if (k * k * k * d * d > MAX_DECODE_COST) {
            throw new IllegalArgumentException(
                    String.format(
                            java.util.Locale.ROOT,
                            "--k: ckm decodes in time growing as k^3*d^2, and k = %d at d = %d"
                                    + " (%.2g) is above %.2g, about a minute on 2 cores: use a"
                                    + " smaller --k, or stats-nested for many clusters in high"
                                    + " dimension",
                            params.k(),
                            d,
                            k * k * k * d * d,
                            MAX_DECODE_COST));
        }
    }

    @Override
    public BatchResult run(double[][] snapshot, BatchParams params, PrivacyRandom rng) {
        BaselineAlgorithm.requirePrivateInputs(this, params, rng);
        DomainBounds b = params.bounds();
        MaskedSketch sketch = sketch(snapshot, params);
        FrequencyMatrix freq = sketch.frequencies();
        int m = freq.size();
        double sigma = freq.sigma();
        DpSketchRelease.Result release = release(sketch, params, rng);
        // ---- post-processing: only the released sketch and public inputs below this line ----
        ClOmpr.Result decoded =
                ClOmpr.decode(
                        release.sketch(),
                        freq,
                        params.k(),
                        b,
                        ClOmpr.Options.defaults(params.seed()));
        double[] weights = new double[params.k()];
        for (int j = 0; j < weights.length; j++) {
            weights[j] = decoded.weights()[j] * release.divisor();
        }
        Map<String, Double> p = new HashMap<>(release.parameters());
        p.put("m", (double) m);
        p.put("r", (double) m);
        p.put("sigma", sigma);
        p.put("noisy_count", (double) release.noisyCount());
        p.put("residual_norm", decoded.residualNorm());
        return new BatchResult(decoded.centroids(), weights, p);
    }

    /**
     * The snapshot's exact sketch: m = 10·k·d frequencies of the default law and σ drawn from the
     * public seed, every record on all m features (private; the input to {@link #release}).
     */
    static MaskedSketch sketch(double[][] snapshot, BatchParams params) {
        DomainBounds b = params.bounds();
        int d = b.dimension();
        int m = FrequencyMatrix.defaultSize(params.k(), d);
        double sigma = FrequencyMatrix.defaultSigma(params.k(), d);
        FrequencyMatrix freq =
                FrequencyMatrix.draw(m, d, sigma, FrequencyMatrix.DEFAULT_LAW, params.seed());
        MaskedSketch sketch = new MaskedSketch(freq, b, m, null);
        for (double[] x : snapshot) {
            sketch.add(x, null);
        }
        return sketch;
    }

    /** The mechanism: the add/remove release of the sketch at ε with the default count share. */
    static DpSketchRelease.Result release(
            MaskedSketch sketch, BatchParams params, PrivacyRandom rng) {
        return DpSketchRelease.addRemove(
                sketch, params.epsilon(), Double.NaN, params.contributionBound(), rng);
    }
}
