package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.quality.ClusteringMetrics;
import org.junit.jupiter.api.Test;

class BatchAlgorithmsTest {
    private static final PrivacySecret SECRET =
            PrivacySecret.fromHex("00112233445566778899aabbccddeeff");
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {100, 100});
    private static final double[][] CENTERS = {{20, 20}, {50, 80}, {80, 30}};

    private static double[][] blobs(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        double[][] p = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] c = CENTERS[i % CENTERS.length];
            p[i] = new double[] {c[0] + 2 * rng.nextGaussian(), c[1] + 2 * rng.nextGaussian()};
        }
        return p;
    }

    private static BatchParams params(double epsilon) {
        return new BatchParams(3, epsilon, BOX, 11, 5, 64, Double.NaN, 1);
    }

    @Test
    void registryKnowsTheBuiltInsAndTheirGuarantees() {
        assertEquals("none", BatchAlgorithms.get("lloyd").guarantee().wireName());
        assertFalse(BatchAlgorithms.get("lloyd").isPrivate());
        assertEquals("dp", BatchAlgorithms.get("stats").guarantee().wireName());
        assertTrue(BatchAlgorithms.get("stats").isPrivate());
        assertTrue(BatchAlgorithms.names().containsAll(java.util.List.of("lloyd", "stats")));
    }

    @Test
    void unknownNameIsAnErrorNamingTheOptionAndTheKnownNames() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> BatchAlgorithms.get("kmedian"));
        assertTrue(e.getMessage().startsWith("--algorithm"), e.getMessage());
        assertTrue(
                e.getMessage().contains("lloyd") && e.getMessage().contains("stats"),
                e.getMessage());
    }

    @Test
    void aSecondAlgorithmWithTheSameNameIsRejected() {
        assertThrows(
                IllegalArgumentException.class,
                () -> BatchAlgorithms.register(new LloydAlgorithm()));
    }

    @Test
    void lloydFindsTheBlobs() {
        BatchResult r = BatchAlgorithms.get("lloyd").run(blobs(900, 1), params(Double.NaN), null);
        assertTrue(ClusteringMetrics.meanMatchedDistance(CENTERS, r.centroids()) < 0.5);
        assertEquals(900, r.weights()[0] + r.weights()[1] + r.weights()[2], 1e-9);
    }

    @Test
    void statsReleasesNearTheBlobsAndIsDeterministicPerSnapshot() {
        PrivacyLedger.Interval i = new PrivacyLedger.Interval(0, 1000);
        BatchAlgorithm stats = BatchAlgorithms.get("stats");
        SnapshotRelease.Outcome a =
                SnapshotRelease.run(stats, params(1.0), blobs(3000, 2), "s", i, null, SECRET);
        SnapshotRelease.Outcome b =
                SnapshotRelease.run(stats, params(1.0), blobs(3000, 2), "s", i, null, SECRET);
        SnapshotRelease.Outcome c =
                SnapshotRelease.run(stats, params(1.0), blobs(3000, 3), "s", i, null, SECRET);
        assertTrue(
                ClusteringMetrics.meanMatchedDistance(CENTERS, a.result().centroids()) < 5,
                "stats centroids far from the true centres");
        for (int j = 0; j < 3; j++) {
            assertArrayEquals(a.result().centroids()[j], b.result().centroids()[j], 0.0);
        }
        assertNotEquals(
                a.result().weights()[0],
                c.result().weights()[0],
                "different snapshots, same noise");
        assertEquals("dp", stats.guarantee().wireName());
        assertNull(a.decision());
    }

    @Test
    void statsNeedsDeclaredBoundsAndEpsilon() {
        BatchAlgorithm stats = BatchAlgorithms.get("stats");
        BatchParams noBounds = new BatchParams(3, 1.0, null, 1, 1, 64, Double.NaN, 1);
        PrivacyLedger.Interval i = new PrivacyLedger.Interval(0, 1);
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        SnapshotRelease.run(
                                                stats,
                                                noBounds,
                                                blobs(30, 1),
                                                "s",
                                                i,
                                                null,
                                                SECRET))
                        .getMessage()
                        .startsWith("--bounds"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        SnapshotRelease.run(
                                                stats,
                                                params(Double.NaN),
                                                blobs(30, 1),
                                                "s",
                                                i,
                                                null,
                                                SECRET))
                        .getMessage()
                        .startsWith("--epsilon"));
    }

    @Test
    void aChargeBeyondTheCapIsRefusedAndRunsNothing() {
        PrivacyLedger ledger = new PrivacyLedger(1.5, 86_400_000L, false);
        PrivacyLedger.Interval i = new PrivacyLedger.Interval(0, 600_000);
        BatchAlgorithm stats = BatchAlgorithms.get("stats");
        SnapshotRelease.Outcome first =
                SnapshotRelease.run(stats, params(1.0), blobs(300, 1), "s", i, ledger, SECRET);
        assertTrue(first.decision().accepted());
        assertEquals(1.0, first.decision().spent(), 1e-12);
        SnapshotRelease.Outcome second =
                SnapshotRelease.run(stats, params(1.0), blobs(300, 1), "s", i, ledger, SECRET);
        assertTrue(second.refused());
        assertNull(second.result());
        assertEquals(1.0, ledger.spent(0), 1e-12);
    }

    @Test
    void aModeSelectsTheFormOfAnAlgorithmOrNamesTheOption() {
        assertEquals("gupt", BatchAlgorithms.withMode("gupt", null));
        assertEquals("gupt-paper", BatchAlgorithms.withMode("gupt", "paper"));
        assertEquals("gupt-paper", BatchAlgorithms.withMode("gupt-paper", "paper"));
        assertEquals("gupt", BatchAlgorithms.withMode("gupt-paper", "strict"));
        assertEquals("expdp-past", BatchAlgorithms.withMode("expdp-past", "strict"));
        String[][] bad = {
            {"gupt", "fast", "--mode must be paper or strict"},
            {"dplloyd", "paper", "--mode paper"},
            {"lloyd", "strict", "--mode strict"}
        };
        for (String[] b : bad) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> BatchAlgorithms.withMode(b[0], b[1]));
            assertTrue(e.getMessage().startsWith(b[2]), e.getMessage());
        }
    }
}
