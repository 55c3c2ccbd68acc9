package org.dpclust.window;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.SketchRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * Builds the published Avro messages of a release — the {@link CentroidRelease} and the {@link
 * SketchRelease} — for the stream's windows and the batch path's snapshot releases alike (the
 * ledger's {@code BudgetStatus} is written by the ledger's writer, {@code io.LedgerHistory}). Only
 * public values enter them (released centroids and weights, public parameters, epsilons), and
 * nothing depends on wall-clock time, so a replayed window encodes byte-identically.
 */
public final class ReleaseAssembler {

    private ReleaseAssembler() {}

    /**
     * A published centroid release.
     *
     * @param mode {@code stream} or {@code batch}
     * @param guarantee {@code dp} for every release of the stream path
     */
    public static CentroidRelease release(
            StreamSpec s,
            String algorithm,
            String mode,
            String guarantee,
            long windowStart,
            long windowEnd,
            int windowsCovered,
            DpClusterStatistics.Release r,
            PrivacyLedger.Decision d) {
        return release(
                s,
                algorithm,
                mode,
                guarantee,
                windowStart,
                windowEnd,
                windowsCovered,
                r,
                WindowRelease.Charged.pure(d));
    }

    /**
     * A published centroid release under a charge that may be a zCDP one: then schema version 2
     * with {@code accounting} zcdp, the charged ρ, the period's ρ spent and cap, and {@code
     * epsilon}, {@code spent}, {@code cap} and {@code delta} as (ε, δ) equivalents; a pure charge
     * gives the version-1 record as before.
     */
    public static CentroidRelease release(
            StreamSpec s,
            String algorithm,
            String mode,
            String guarantee,
            long windowStart,
            long windowEnd,
            int windowsCovered,
            DpClusterStatistics.Release r,
            WindowRelease.Charged charged) {
        PrivacyLedger.Decision d = charged.decision();
        List<List<Double>> centroids = new ArrayList<>();
        for (double[] c : r.centroids()) {
            centroids.add(boxed(c));
        }
        CentroidRelease.Builder b = CentroidRelease.newBuilder();
        if (charged.zcdp()) {
            b.setSchemaVersion(2)
                    .setAccounting(Accounting.ZCDP.configName())
                    .setRho(charged.rho())
                    .setRhoSpent(charged.rhoSpent())
                    .setRhoCap(charged.rhoCap());
        } else {
            b.setSchemaVersion(1);
        }
        return b.setStreamId(s.id())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(windowEnd))
                .setWindowsCovered(windowsCovered)
                .setAlgorithm(algorithm)
                .setMode(mode)
                .setK(r.centroids().length)
                .setCentroids(centroids)
                .setWeights(boxed(r.weights()))
                .setEpsilon(d.epsilon())
                .setDelta(charged.zcdp() ? charged.delta() : 0.0)
                .setSpent(d.spent())
                .setCap(d.cap())
                .setBudgetPeriodStart(Instant.ofEpochMilli(d.periodStart()))
                .setBudgetPeriodEnd(Instant.ofEpochMilli(d.periodEnd()))
                .setNeighbouring("add-remove")
                .setPrivacyUnit(s.privacyUnit().wireName())
                .setContributionBound(s.unitContribution())
                .setGuarantee(guarantee)
                .setDomainLower(boxed(s.lower()))
                .setDomainUpper(boxed(s.upper()))
                .setMechanismParams(new TreeMap<>(r.parameters()))
                .build();
    }

    /**
     * The published DP sketch of a window (everything a consumer needs to rebuild Ω and decode or
     * merge it).
     */
    public static SketchRelease sketch(
            StreamSpec s,
            long windowStart,
            long windowEnd,
            FrequencyMatrix f,
            int r,
            DpSketchRelease.Result noisy,
            WindowRelease.Charged charged) {
        PrivacyLedger.Decision d = charged.decision();
        SketchRelease.Builder b = SketchRelease.newBuilder();
        if (charged.zcdp()) {
            b.setSchemaVersion(2)
                    .setAccounting(Accounting.ZCDP.configName())
                    .setDelta(charged.delta())
                    .setRho(charged.rho())
                    .setRhoSpent(charged.rhoSpent())
                    .setRhoCap(charged.rhoCap());
        } else {
            b.setSchemaVersion(1);
        }
        return b.setStreamId(s.id())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(windowEnd))
                .setWindowsCovered(1)
                .setM(f.size())
                .setR(r)
                .setDimension(f.dimension())
                .setFrequencySeed(f.seed())
                .setFrequencyLaw(f.law().label())
                .setFrequencySigma(f.sigma())
                .setSketch(boxed(noisy.sketch()))
                .setNoisyCount(noisy.noisyCount())
                .setEpsilon(d.epsilon())
                .setGuarantee("dp")
                .setNeighbouring(noisy.neighbouring().label())
                .setPrivacyUnit(s.privacyUnit().wireName())
                .setDomainLower(boxed(s.lower()))
                .setDomainUpper(boxed(s.upper()))
                .setMechanismParams(new TreeMap<>(noisy.parameters()))
                .build();
    }

    private static List<Double> boxed(double[] v) {
        List<Double> l = new ArrayList<>(v.length);
        for (double x : v) {
            l.add(x);
        }
        return l;
    }
}
