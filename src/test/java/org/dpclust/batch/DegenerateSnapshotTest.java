package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.junit.jupiter.api.Test;

/**
 * No data-dependent failure after a charge: every registered {@code dp} algorithm, run through
 * {@link SnapshotRelease} with a ledger, is charged and returns a release of k finite centroids in
 * the public domain for snapshots of 0, 1 and k − 1 records, all-equal records and records on the
 * box's corners — at a small, a moderate and a very large ε (where the ExpDP zone sampler once
 * rejected forever).
 */
class DegenerateSnapshotTest {
    private static final int K = 3;
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {100, 100});
    private static final PrivacySecret SECRET =
            PrivacySecret.fromHex("00112233445566778899aabbccddeeff");
    private static final KMedianUniverse UNIVERSE = universe();

    private static KMedianUniverse universe() {
        SplittableRandom pub = new SplittableRandom(5); // public randomness (not privacy noise)
        double[][] u = new double[40][];
        for (int i = 0; i < u.length; i++) {
            u[i] = new double[] {100 * pub.nextDouble(), 100 * pub.nextDouble()};
        }
        return KMedianUniverse.vectors(u, KMedianUniverse.Kind.L2);
    }

    /** Snapshots by description: sizes 0, 1, k − 1, and the degenerate shapes. */
    static Map<String, double[][]> snapshots() {
        Map<String, double[][]> s = new LinkedHashMap<>();
        s.put("n=0", new double[0][]);
        s.put("n=1", new double[][] {{37, 61}});
        s.put("n=k-1", new double[][] {{10, 90}, {70, 20}});
        double[][] same = new double[25][];
        for (int i = 0; i < same.length; i++) {
            same[i] = new double[] {50, 50};
        }
        s.put("all equal", same);
        s.put("corners", new double[][] {{0, 0}, {0, 100}, {100, 0}, {100, 100}, {100, 100}});
        return s;
    }

    static List<BatchAlgorithm> strictAlgorithms() {
        List<BatchAlgorithm> out = new ArrayList<>();
        for (String name : BatchAlgorithms.names()) {
            BatchAlgorithm a = BatchAlgorithms.get(name);
            if (org.dpclust.privacy.Guarantee.DP.equals(a.guarantee())) {
                out.add(a);
            }
        }
        return out;
    }

    @Test
    void theStrictAlgorithmsAreTheOnesWeExpect() {
        List<String> names = strictAlgorithms().stream().map(BatchAlgorithm::name).toList();
        for (String expected :
                List.of(
                        "stats",
                        "expdp-past",
                        "expdp-past-future",
                        "dplloyd",
                        "su",
                        "dwork",
                        "gupt",
                        "privgene",
                        "ckm",
                        "dp-local-search",
                        "dp-hst-local-search")) {
            assertTrue(names.contains(expected), expected + " missing from " + names);
        }
    }

    @Test
    void everyStrictAlgorithmIsChargedAndReleasesOnEveryDegenerateSnapshot() {
        for (BatchAlgorithm a : strictAlgorithms()) {
            for (double epsilon : new double[] {1e-3, 1.0, 1e6}) {
                BatchParams params =
                        new BatchParams(K, epsilon, BOX, 11, 3, 64, Double.NaN, 1)
                                .withUniverse(UNIVERSE);
                for (Map.Entry<String, double[][]> s : snapshots().entrySet()) {
                    String what = a.name() + " at epsilon " + epsilon + " on " + s.getKey();
                    PrivacyLedger ledger = new PrivacyLedger(1e7, 86_400_000L, false);
                    PrivacyLedger.Interval interval = new PrivacyLedger.Interval(0, 60_000);
                    SnapshotRelease.Outcome o =
                            assertTimeoutPreemptively(
                                    Duration.ofSeconds(30),
                                    () ->
                                            SnapshotRelease.run(
                                                    a,
                                                    params,
                                                    copy(s.getValue()),
                                                    "s",
                                                    interval,
                                                    ledger,
                                                    SECRET),
                                    what);
                    assertTrue(o.decision().accepted(), what);
                    assertEquals(epsilon, ledger.spent(0), 1e-9 * epsilon, what);
                    assertFalse(o.refused(), what);
                    assertNotNull(o.result(), what);
                    assertRelease(o.result(), what);
                }
            }
        }
    }

    /** k centroids, finite and in the box; finite weights and parameters. */
    private static void assertRelease(BatchResult r, String what) {
        assertEquals(K, r.centroids().length, what);
        assertEquals(K, r.weights().length, what);
        for (double[] c : r.centroids()) {
            assertEquals(2, c.length, what);
            for (int j = 0; j < 2; j++) {
                assertTrue(Double.isFinite(c[j]), what + ": centroid " + c[j]);
                assertTrue(c[j] >= 0 && c[j] <= 100, what + ": centroid outside the box " + c[j]);
            }
        }
        for (double w : r.weights()) {
            assertTrue(Double.isFinite(w), what + ": weight " + w);
        }
        r.parameters()
                .forEach(
                        (k, v) ->
                                assertTrue(
                                        Double.isFinite(v), what + ": parameter " + k + " " + v));
    }

    private static double[][] copy(double[][] s) {
        double[][] c = new double[s.length][];
        for (int i = 0; i < s.length; i++) {
            c[i] = s[i].clone();
        }
        return c;
    }
}
