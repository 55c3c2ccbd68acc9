package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.batch.BatchParams;
import org.dpclust.batch.KMedianUniverse;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.TestStreams;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

/** A batch job's run is validated when it is built: dp algorithms only, a declared stream. */
class BatchRunTest {
    private static final DpclustConfig CONFIG = config("s");

    private static DpclustConfig config(String id) {
        return TestStreams.config(id, 2.0);
    }

    private static final StreamSpec SPEC = CONFIG.stream("s").orElseThrow();
    private static final BatchParams PARAMS =
            new BatchParams(
                    3,
                    1.0,
                    new DomainBounds(new double[] {0, 0}, new double[] {1, 1}),
                    1,
                    1,
                    64,
                    Double.NaN,
                    1);
    private static final PrivacyLedger.Interval INTERVAL = new PrivacyLedger.Interval(0, 60_000);
    private static final SecretSource SECRET = TestRandoms.secretSource();

    private static BatchRun run(String algorithm) {
        return BatchRun.create(CONFIG, SPEC, algorithm, PARAMS, INTERVAL, SECRET);
    }

    @Test
    void everyRunHasItsOwnRunIdAndARunIdMayNotBreakTheChargeKey() {
        assertNotEquals(run("expdp-past").runId(), run("expdp-past").runId());
        for (String bad : new String[] {"", " ", "a|b"}) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> new BatchRun(CONFIG, SPEC, "stats", PARAMS, INTERVAL, SECRET, bad));
        }
    }

    @Test
    void anythingButDpIsRefusedNamingTheOutputOption() {
        for (String name : new String[] {"expdp-past-paper", "dp-km", "epp-1", "lloyd"}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> run(name));
            assertTrue(e.getMessage().startsWith("--output kafka"), e.getMessage());
        }
    }

    @Test
    void aStreamNotInTheConfigurationIsRefused() {
        DpclustConfig other = config("t");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> run("stats").withConfig(other));
        assertTrue(e.getMessage().startsWith("--stream"), e.getMessage());
    }

    @Test
    void aUniverseOfAnotherDimensionOrAGraphIsRefusedBeforeTheJobStarts() {
        KMedianUniverse threeD =
                KMedianUniverse.vectors(
                        new double[][] {{0, 0, 0}, {1, 1, 1}, {0, 1, 0}}, KMedianUniverse.Kind.L2);
        KMedianUniverse graph =
                KMedianUniverse.graph(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {1, 1});
        Object[][] cases = {{threeD, "--universe"}, {graph, "--input"}, {null, "--universe"}};
        for (Object[] c : cases) {
            BatchParams p = PARAMS.withUniverse((KMedianUniverse) c[0]);
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () ->
                                    new BatchRun(
                                            CONFIG,
                                            SPEC,
                                            "dp-local-search",
                                            p,
                                            INTERVAL,
                                            SECRET,
                                            "run-1"));
            assertTrue(e.getMessage().startsWith((String) c[1]), e.getMessage());
        }
    }
}
