package org.dpclust.window;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.SketchRelease;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.geometry.PublicPointSet;
import org.dpclust.kmeans.DpClusterStatistics;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.FixedPointCodec;
import org.dpclust.privacy.Guarantee;
import org.dpclust.sketch.DpSketchRelease;
import org.dpclust.sketch.FrequencyMatrix;

/**
 * Builds the published Avro messages of a release — the {@link CentroidRelease} and the {@link
 * SketchRelease} — for the stream's windows and the batch path's snapshot releases alike (the
 * ledger's {@code BudgetStatus} is written by the ledger's writer, {@code ledger.LedgerHistory}).
 * Only public values enter them (released centroids and weights, public parameters, epsilons), and
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
            Guarantee guarantee,
            long windowStart,
            long windowEnd,
            int windowsCovered,
            ReleasedCentroids r,
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
            Guarantee guarantee,
            long windowStart,
            long windowEnd,
            int windowsCovered,
            ReleasedCentroids r,
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
                .setGuarantee(guarantee.wireName())
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
                .setGuarantee(Guarantee.DP.wireName())
                .setNeighbouring(noisy.neighbouring().label())
                .setPrivacyUnit(s.privacyUnit().wireName())
                .setDomainLower(boxed(s.lower()))
                .setDomainUpper(boxed(s.upper()))
                .setMechanismParams(new TreeMap<>(noisy.parameters()))
                .build();
    }

    /**
     * The published noisy cells of a {@code stats} release (the mechanism's output before
     * post-processing): counts, centred sums in data units, the means they give, the noise standard
     * deviations (for a geometric release √2 times its scale) and the charge's ε, δ, ρ.
     */
    public static CellsRelease cells(
            StreamSpec s,
            PublicPointSet partition,
            FixedPointCodec codec,
            long windowStart,
            long windowEnd,
            DpClusterStatistics.NoisyCells noisy,
            Map<String, Double> parameters,
            WindowRelease.Charged charged) {
        DomainBounds box = codec.bounds();
        int d = box.dimension();
        List<List<Double>> points = new ArrayList<>();
        List<List<Double>> means = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        List<Double> sums = new ArrayList<>();
        double[] mean = new double[d];
        for (int c = 0; c < noisy.counts().length; c++) {
            points.add(boxed(partition.point(c)));
            long n = noisy.counts()[c];
            counts.add(n);
            for (int j = 0; j < d; j++) {
                long units = noisy.sums()[c * d + j];
                sums.add(units / 0x1p32 * box.width(j));
                mean[j] = n >= 1 ? codec.decodeMean(j, units, n) : box.mid(j);
            }
            box.clamp(mean, mean);
            means.add(boxed(mean));
        }
        double spread = noisy.gaussian() ? 1 : Math.sqrt(2);
        CellsRelease.Builder b = CellsRelease.newBuilder();
        if (charged.zcdp()) {
            b.setAccounting(Accounting.ZCDP.configName())
                    .setDelta(charged.delta())
                    .setRho(charged.rho());
        }
        return b.setSchemaVersion(1)
                .setStreamId(s.id())
                .setWindowStart(Instant.ofEpochMilli(windowStart))
                .setWindowEnd(Instant.ofEpochMilli(windowEnd))
                .setDimension(d)
                .setCellPoints(points)
                .setNoisyCounts(counts)
                .setNoisySums(sums)
                .setNoisyMeans(means)
                .setCountNoiseSd(noisy.countScale() * spread)
                .setSumNoiseSd(noisy.sumScale() / 0x1p32 * spread)
                .setEpsilon(charged.decision().epsilon())
                .setPrivacyUnit(s.privacyUnit().wireName())
                .setContributionBound(s.unitContribution())
                .setDomainLower(boxed(s.lower()))
                .setDomainUpper(boxed(s.upper()))
                .setMechanismParams(new TreeMap<>(parameters))
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
