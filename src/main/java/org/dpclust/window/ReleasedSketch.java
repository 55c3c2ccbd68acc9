package org.dpclust.window;

import java.util.Map;
import java.util.TreeMap;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.sketch.DpSketchRelease;

/**
 * What the window core ({@link WindowRelease}) hands to the ckm decoder (the stream's {@code
 * SketchDecoder} operator) for one accepted {@code ckm} release: the already-released DP sketch
 * (the normalised z and its divisor), the release's public noise parameters and the ledger decision
 * that charged it. Everything here is public — it is the published {@code SketchRelease} plus the
 * budget status of the same window — so decoding it downstream is post-processing. A Flink POJO
 * (strings, longs, doubles and primitive or string arrays only; the parameters are two parallel
 * arrays sorted by name, not a map).
 */
public class ReleasedSketch {
    public String streamId;
    public long windowStart;
    public long windowEnd;

    /** z, real-stacked, length 2m. */
    public double[] sketch;

    /** The count z was normalised by: the decoded weights are scaled by it to estimated records. */
    public double divisor;

    /** Names of the release's noise parameters, sorted. */
    public String[] parameterNames;

    /** Values of the noise parameters, aligned with {@link #parameterNames}. */
    public double[] parameterValues;

    /**
     * The ledger decision: the interval charged, epsilon, totals, cap and the budget period's
     * bounds.
     */
    public long intervalStart;

    public long intervalEnd;
    public double epsilon;
    public double intervalTotal;
    public double spent;
    public double cap;
    public long periodStart;
    public long periodEnd;

    /** zCDP charges: ρ charged, ρ spent after it, ρ cap and δ; NaN for a pure stream. */
    public double rho = Double.NaN;

    public double rhoSpent = Double.NaN;
    public double rhoCap = Double.NaN;
    public double delta = Double.NaN;

    public ReleasedSketch() {}

    /** The release of one window's sketch under an accepted ledger decision. */
    public static ReleasedSketch of(
            String streamId,
            long windowStart,
            long windowEnd,
            DpSketchRelease.Result noisy,
            WindowRelease.Charged charged) {
        PrivacyLedger.Decision decision = charged.decision();
        ReleasedSketch r = new ReleasedSketch();
        r.rho = charged.rho();
        r.rhoSpent = charged.rhoSpent();
        r.rhoCap = charged.rhoCap();
        r.delta = charged.delta();
        r.streamId = streamId;
        r.windowStart = windowStart;
        r.windowEnd = windowEnd;
        r.sketch = noisy.sketch();
        r.divisor = noisy.divisor();
        Map<String, Double> params = new TreeMap<>(noisy.parameters());
        r.parameterNames = params.keySet().toArray(new String[0]);
        r.parameterValues = params.values().stream().mapToDouble(Double::doubleValue).toArray();
        r.intervalStart = decision.interval().start();
        r.intervalEnd = decision.interval().end();
        r.epsilon = decision.epsilon();
        r.intervalTotal = decision.intervalTotal();
        r.spent = decision.spent();
        r.cap = decision.cap();
        r.periodStart = decision.periodStart();
        r.periodEnd = decision.periodEnd();
        return r;
    }

    /** The noise parameters as a sorted map. */
    public Map<String, Double> parameters() {
        Map<String, Double> m = new TreeMap<>();
        for (int i = 0; i < parameterNames.length; i++) {
            m.put(parameterNames[i], parameterValues[i]);
        }
        return m;
    }

    /** The accepted charge of this release, with its ρ's under zCDP accounting. */
    public WindowRelease.Charged charged() {
        return new WindowRelease.Charged(decision(), rho, rhoSpent, rhoCap, delta);
    }

    /** The accepted ledger decision that charged this release. */
    public PrivacyLedger.Decision decision() {
        return new PrivacyLedger.Decision(
                true,
                new PrivacyLedger.Interval(intervalStart, intervalEnd),
                epsilon,
                intervalTotal,
                spent,
                cap,
                periodStart,
                periodEnd);
    }
}
