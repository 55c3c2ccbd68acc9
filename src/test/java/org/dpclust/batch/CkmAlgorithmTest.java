package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpclust.eval.ClusteringMetrics;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.junit.jupiter.api.Test;

/** {@code ckm} through the registry and {@link SnapshotRelease}, on three well-separated blobs. */
class CkmAlgorithmTest {
    private static final PrivacySecret SECRET = PrivacySecret.fromHex("00112233445566778899aabbccddeeff");
    private static final DomainBounds BOX = new DomainBounds(new double[] {0, 0}, new double[] {100, 100});
    private static final double[][] CENTERS = {{20, 20}, {50, 80}, {80, 30}};
    private static final PrivacyLedger.Interval INTERVAL = new PrivacyLedger.Interval(0, 1000);

    private static double[][] blobs(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed); // public randomness (not privacy noise)
        double[][] p = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] c = CENTERS[i % CENTERS.length];
            p[i] = new double[] {c[0] + 2 * rng.nextGaussian(), c[1] + 2 * rng.nextGaussian()};
        }
        return p;
    }

    private static BatchParams params(double epsilon, DomainBounds bounds) {
        return new BatchParams(3, epsilon, bounds, 11, 5, 64, Double.NaN, 1);
    }

    @Test
    void registeredAsDp() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        assertEquals("dp", ckm.guarantee());
        assertTrue(ckm.isPrivate());
    }

    @Test
    void releasesNearTheBlobsDeterministicallyPerSnapshot() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        SnapshotRelease.Outcome a = SnapshotRelease.run(ckm, params(1.0, BOX), blobs(3000, 2), "s", INTERVAL, null,
                SECRET);
        SnapshotRelease.Outcome b = SnapshotRelease.run(ckm, params(1.0, BOX), blobs(3000, 2), "s", INTERVAL, null,
                SECRET);
        SnapshotRelease.Outcome c = SnapshotRelease.run(ckm, params(1.0, BOX), blobs(3000, 3), "s", INTERVAL, null,
                SECRET);
        double matched = ClusteringMetrics.meanMatchedDistance(CENTERS, a.result().centroids());
        assertTrue(matched < 3, "ckm centroids " + matched + " from the true centres");
        for (int j = 0; j < 3; j++) {
            assertArrayEquals(a.result().centroids()[j], b.result().centroids()[j], 0.0);
        }
        assertNotEquals(a.result().parameters().get("noisy_count"), c.result().parameters().get("noisy_count"),
                "different snapshots, same noise");
        double total = a.result().weights()[0] + a.result().weights()[1] + a.result().weights()[2];
        assertEquals(3000, total, 100, "weights should sum to the noisy count");
        assertEquals(60.0, a.result().parameters().get("m"), "m = 10·k·d");
        assertEquals(1.0, a.result().parameters().get("alpha_r"));
    }

    @Test
    void needsBoundsAndAFiniteEpsilon() {
        BatchAlgorithm ckm = BatchAlgorithms.get("ckm");
        IllegalArgumentException noBounds = assertThrows(IllegalArgumentException.class,
                () -> SnapshotRelease.run(ckm, params(1.0, null), blobs(30, 1), "s", INTERVAL, null, SECRET));
        assertTrue(noBounds.getMessage().startsWith("--bounds"), noBounds.getMessage());
        IllegalArgumentException noEps = assertThrows(IllegalArgumentException.class,
                () -> SnapshotRelease.run(ckm, params(Double.POSITIVE_INFINITY, BOX), blobs(30, 1), "s", INTERVAL,
                        null, SECRET));
        assertTrue(noEps.getMessage().startsWith("--epsilon"), noEps.getMessage());
    }
}
