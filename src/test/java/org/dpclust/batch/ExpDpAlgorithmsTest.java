package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;
import org.junit.jupiter.api.Test;

/**
 * The ExpDP and baseline batch algorithms: registered names, labels, and a run of each through
 * SnapshotRelease.
 */
class ExpDpAlgorithmsTest {
    private static final PrivacySecret SECRET =
            PrivacySecret.fromHex("00112233445566778899aabbccddeeff");
    private static final DomainBounds BOX =
            new DomainBounds(new double[] {0, 0}, new double[] {100, 100});
    private static final Map<String, String> LABELS =
            Map.ofEntries(
                    Map.entry("expdp-past", "dp"),
                    Map.entry("expdp-past-future", "dp"),
                    Map.entry("expdp-past-paper", "paper-claimed"),
                    Map.entry("expdp-past-future-paper", "paper-claimed"),
                    Map.entry("dplloyd", "dp"),
                    Map.entry("su", "dp"),
                    Map.entry("dwork", "dp"),
                    Map.entry("gupt", "dp"),
                    Map.entry("gupt-paper", "paper-claimed"),
                    Map.entry("privgene", "dp"),
                    Map.entry("privgene-paper", "paper-claimed"));

    private static double[][] blobs(int n) {
        SplittableRandom rng = new SplittableRandom(4); // public randomness (not privacy noise)
        double[][] centres = {{20, 20}, {50, 80}, {80, 30}};
        double[][] p = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] c = centres[i % 3];
            p[i] = new double[] {c[0] + 2 * rng.nextGaussian(), c[1] + 2 * rng.nextGaussian()};
        }
        return p;
    }

    @Test
    void everyNameIsRegisteredWithItsLabelAndReleasesKCentroidsInTheBox() {
        BatchParams params = new BatchParams(3, 2.0, BOX, 11, 5, 64, Double.NaN, 1);
        LABELS.forEach(
                (name, label) -> {
                    BatchAlgorithm a = BatchAlgorithms.get(name);
                    assertEquals(label, a.guarantee().wireName(), name);
                    BatchResult r =
                            SnapshotRelease.run(
                                            a,
                                            params,
                                            blobs(3000),
                                            "s",
                                            new PrivacyLedger.Interval(0, 1),
                                            null,
                                            SECRET)
                                    .result();
                    assertEquals(3, r.centroids().length, name);
                    assertEquals(3, r.weights().length, name);
                    double spent =
                            r.parameters()
                                    .getOrDefault(
                                            "claimed_epsilon", r.parameters().get("epsilon_spent"));
                    assertTrue(
                            spent <= 2.0 + 1e-9,
                            name + " spends or claims more than charged: " + spent);
                    if (label.equals("dp")) {
                        for (double[] c : r.centroids()) {
                            assertTrue(c[0] >= 0 && c[0] <= 100 && c[1] >= 0 && c[1] <= 100, name);
                        }
                    }
                });
    }

    @Test
    void privateRunsNeedBoundsAndEpsilon() {
        BatchParams noBounds = new BatchParams(3, 1.0, null, 11, 5, 64, Double.NaN, 1);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                SnapshotRelease.run(
                                        BatchAlgorithms.get("expdp-past"),
                                        noBounds,
                                        blobs(30),
                                        "s",
                                        new PrivacyLedger.Interval(0, 1),
                                        null,
                                        SECRET));
        assertTrue(e.getMessage().startsWith("--bounds"), e.getMessage());
    }
}
