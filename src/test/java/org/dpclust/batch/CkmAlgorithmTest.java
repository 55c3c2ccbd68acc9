package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.quality.ClusteringMetrics;
import org.dpclust.synthetic.DriftingGaussianMixture;
import org.junit.jupiter.api.Test;

/**
 * {@code ckm} through the registry and {@link SnapshotRelease}, on three well-separated public
 * blobs.
 */
class CkmAlgorithmTest {
    private static final PrivacySecret SECRET =
            PrivacySecret.fromHex("00112233445566778899aabbccddeeff");
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {100, 100});
    private static final PrivacyLedger.Interval INTERVAL = new PrivacyLedger.Interval(0, 1000);

    /** Three well-separated public blobs (sd 2 % of the box width) in the declared box. */
    private static final DriftingGaussianMixture MIXTURE =
            new DriftingGaussianMixture(BOX.lowerCopy(), BOX.upperCopy(), 3, 0.02, 0.0, 9);

    private static final double[][] CENTERS = MIXTURE.centers(0);

    private static double[][] blobs(int n, long window) {
        return MIXTURE.sample((int) window, n);
    }

    private static BatchParams params(double epsilon, DomainBounds bounds) {
        return new BatchParams(3, epsilon, bounds, 11, 5, 64, Double.NaN, 1);
    }

    @Test
    void registeredAsDp() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        assertEquals("dp", ckm.guarantee().wireName());
        assertTrue(ckm.isPrivate());
    }

    @Test
    void releasesNearTheBlobsDeterministicallyPerSnapshot() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        SnapshotRelease.Outcome a =
                SnapshotRelease.run(
                        ckm, params(1.0, BOX), blobs(3000, 2), "s", INTERVAL, null, SECRET);
        SnapshotRelease.Outcome b =
                SnapshotRelease.run(
                        ckm, params(1.0, BOX), blobs(3000, 2), "s", INTERVAL, null, SECRET);
        SnapshotRelease.Outcome c =
                SnapshotRelease.run(
                        ckm, params(1.0, BOX), blobs(3000, 3), "s", INTERVAL, null, SECRET);
        double matched = ClusteringMetrics.meanMatchedDistance(CENTERS, a.result().centroids());
        assertTrue(matched < 3, "ckm centroids " + matched + " from the true centres");
        for (int j = 0; j < 3; j++) {
            assertArrayEquals(a.result().centroids()[j], b.result().centroids()[j], 0.0);
        }
        assertNotEquals(
                a.result().parameters().get("noisy_count"),
                c.result().parameters().get("noisy_count"),
                "different snapshots, same noise");
        double total = a.result().weights()[0] + a.result().weights()[1] + a.result().weights()[2];
        assertEquals(3000, total, 100, "weights should sum to the noisy count");
        assertEquals(60.0, a.result().parameters().get("m"), "m = 10·k·d");
        assertEquals(1.0, a.result().parameters().get("alpha_r"));
    }

    /**
     * The decode-cost bound is on the public k and d alone: k = 11 at d = 100 (k³d² = 1.33·10⁷) and
     * k = 54 at d = 10 (1.57·10⁷) pass the check, k = 12 (1.73·10⁷) and k = 64 at d = 10 (2.6·10⁷,
     * 81 s measured) are refused naming --k, before anything is charged or sketched, whatever the
     * snapshot's size.
     */
    @Test
    void refusesAKAndDimensionWhoseDecodeWouldTakeMinutes() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        DomainBounds d100 = new DomainBounds(new double[100], filled(100, 1.0));
        DomainBounds d10 = new DomainBounds(new double[10], filled(10, 1.0));
        ckm.checkParams(new BatchParams(11, 1.0, d100, 11, 5, 64, Double.NaN, 1));
        ckm.checkParams(new BatchParams(54, 1.0, d10, 11, 5, 64, Double.NaN, 1));
        for (BatchParams tooCostly :
                List.of(
                        new BatchParams(12, 1.0, d100, 11, 5, 64, Double.NaN, 1),
                        new BatchParams(64, 1.0, d10, 11, 5, 64, Double.NaN, 1))) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ckm.checkParams(tooCostly));
            assertTrue(e.getMessage().startsWith("--k: ckm"), e.getMessage());
            assertTrue(e.getMessage().contains("stats-nested"), e.getMessage());
        }
    }

    private static double[] filled(int n, double v) {
        double[] x = new double[n];
        java.util.Arrays.fill(x, v);
        return x;
    }

    @Test
    void needsBoundsAndAFiniteEpsilon() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        IllegalArgumentException noBounds =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                SnapshotRelease.run(
                                        ckm,
                                        params(1.0, null),
                                        blobs(30, 1),
                                        "s",
                                        INTERVAL,
                                        null,
                                        SECRET));
        assertTrue(noBounds.getMessage().startsWith("--bounds"), noBounds.getMessage());
        IllegalArgumentException noEps =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                SnapshotRelease.run(
                                        ckm,
                                        params(Double.POSITIVE_INFINITY, BOX),
                                        blobs(30, 1),
                                        "s",
                                        INTERVAL,
                                        null,
                                        SECRET));
        assertTrue(noEps.getMessage().startsWith("--epsilon"), noEps.getMessage());
    }
}
