package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
    private static final String VALID =
            """
            kafka: {bootstrap_servers: "b:9092"}
            streams:
              - id: s1
                dimension: 2
                lower: [0, 0]
                upper: [1, 2]
                k: 3
                window: PT10S
                epsilon_per_release: 0.5
                budget_cap: 10
            """;

    private static String option(String yaml) {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml)).option();
    }

    @Test
    void parsesAValidConfigurationWithDefaults() {
        DpclustConfig c = ConfigLoader.parse(VALID);
        StreamSpec s = c.stream("s1").orElseThrow();
        assertEquals(2, s.dimension());
        assertEquals(3, s.k());
        assertEquals(10_000, s.windowMillis());
        assertEquals(PrivacyUnit.RECORD, s.privacyUnit());
        assertEquals(1, s.unitContribution());
        assertEquals("telemetry.v1", c.kafka().inputTopic());
        assertEquals("b:9092", c.kafka().bootstrapServers());
        assertTrue(s.statsCells() >= s.k());
        assertEquals(org.dpclust.kmeans.DpClusterStatistics.Update.MEAN, s.statsUpdate());
        assertEquals(
                org.dpclust.kmeans.DpClusterStatistics.Update.EXPDP_ZONE,
                ConfigLoader.parse(VALID + "    stats: {update: expdp-zone}\n").stream("s1")
                        .orElseThrow()
                        .statsUpdate());
    }

    @Test
    void theReleaseClockIsTheDefaultAndIdlenessOnlyGoesWithoutIt() {
        JobSettings j = ConfigLoader.parse(VALID).job();
        assertEquals(JobSettings.ReleaseClock.TICKS, j.releaseClock());
        assertEquals(java.time.Duration.ofSeconds(1), j.tickInterval());
        assertTrue(j.ticks());
        assertFalse(j.withBoundedInput(true).ticks(), "bounded input ends with its own watermark");
        String job = "job: {start: \"2026-01-01T00:00:00Z\", %s}\n";
        assertEquals("job.idle_timeout", option(VALID + job.formatted("idle_timeout: PT5S")));
        assertEquals(
                "job.tick_interval",
                option(VALID + job.formatted("release_clock: records, tick_interval: PT2S")));
        assertEquals("job.tick_interval", option(VALID + job.formatted("tick_interval: PT2M")));
        assertEquals("job.tick_interval", option(VALID + job.formatted("tick_interval: PT0S")));
        assertEquals(
                "job.tick_interval", option(VALID + job.formatted("tick_interval: PT0.0005S")));
        assertEquals("job.release_clock", option(VALID + job.formatted("release_clock: wall")));
        JobSettings records =
                ConfigLoader.parse(
                                VALID + job.formatted("release_clock: records, idle_timeout: PT5S"))
                        .job();
        assertFalse(records.ticks());
        assertEquals(java.time.Duration.ofSeconds(5), records.idleTimeout());
        assertEquals(
                java.time.Duration.ofSeconds(5),
                ConfigLoader.parse(
                                VALID
                                        + job.formatted(
                                                "bounded_input: true, end:"
                                                        + " \"2026-01-02T00:00:00Z\","
                                                        + " idle_timeout: PT5S"))
                        .job()
                        .idleTimeout());
    }

    @Test
    void theExampleConfigurationIsValidAndStatesTheDefaultFormats() {
        DpclustConfig c = ConfigLoader.load(java.nio.file.Path.of("flink-conf/dpclust.yaml"));
        assertEquals(TopicFormats.AVRO, c.formats());
    }

    @Test
    void aRecordsHintSetsTheCellsByTheSignalRule() {
        // d = 2, k = 3, eps 0.5: 300 records -> x = 75 -> 3 * round(75 / 25) = 9 cells
        StreamSpec s =
                ConfigLoader.parse(VALID + "    stats: {records_hint: 300}\n").stream("s1")
                        .orElseThrow();
        assertEquals(org.dpclust.kmeans.CellRule.cells(3, 2, 0.5, 300), s.statsCells());
        assertEquals(9, s.statsCells());
        assertEquals(
                "streams[0].stats.records_hint",
                option(VALID + "    stats: {records_hint: 300, cells: 64}\n"));
        assertEquals(
                "streams[0].stats.records_hint", option(VALID + "    stats: {records_hint: 0}\n"));
    }

    @Test
    void errorsNameTheOption() {
        assertEquals("streams[0].k", option(VALID.replace("k: 3", "k: 0")));
        assertEquals(
                "streams[0].upper[1]", option(VALID.replace("upper: [1, 2]", "upper: [1, -1]")));
        assertEquals("streams[0].lower", option(VALID.replace("lower: [0, 0]", "lower: [0]")));
        assertEquals("streams[0].windw", option(VALID.replace("window:", "windw:")));
        assertEquals("streams[0].window", option(VALID.replace("window: PT10S", "window: ten")));
        assertEquals(
                "streams[0].epsilon_per_release",
                option(VALID.replace("epsilon_per_release: 0.5", "epsilon_per_release: -1")));
        assertEquals("streams[0].budget_cap", option(VALID.replace("    budget_cap: 10\n", "")));
        assertEquals("streams[0].privacy_unit", option(VALID + "    privacy_unit: household\n"));
        assertEquals("streams[0].budget_period", option(VALID + "    budget_period: PT15S\n"));
        assertEquals("streams[0].summaries[0]", option(VALID + "    summaries: [magic]\n"));
        assertEquals(
                "streams[0].stats.update", option(VALID + "    stats: {update: expdp_zone}\n"));
        assertEquals(
                "kafka.transaction_timeout",
                option(VALID.replace("kafka: {", "kafka: {transaction_timeout: PT20M, ")));
        assertEquals(
                "kafka.starting_offsets",
                option(VALID.replace("kafka: {", "kafka: {starting_offsets: never, ")));
        assertEquals("streams", option("kafka: {}\nstreams: []\n"));
        assertEquals("streams[1].id", option(VALID + VALID.substring(VALID.indexOf("  - id"))));
    }

    @Test
    void topicFormatsDefaultToAvroAndAreSetPerTopic() {
        assertEquals(TopicFormats.AVRO, ConfigLoader.parse(VALID).formats());
        String withFormats =
                VALID.replace(
                        "kafka: {bootstrap_servers: \"b:9092\"}",
                        "kafka: {bootstrap_servers: \"b:9092\", formats: {centroids: json, dlq: json}}");
        assertEquals(
                new TopicFormats(WireFormat.JSON, WireFormat.AVRO, WireFormat.JSON),
                ConfigLoader.parse(withFormats).formats());
        assertEquals(
                "kafka.formats.sketches",
                option(withFormats.replace("dlq: json", "sketches: protobuf")));
        assertEquals(
                "kafka.formats.budget", option(withFormats.replace("dlq: json", "budget: json")));
        assertEquals(
                "kafka.formats.input", option(withFormats.replace("dlq: json", "input: json")));
    }

    @Test
    void runningReleasesAreOffUnlessSetAndTheirSpanIsBounded() {
        assertEquals(
                RunningSettings.NONE,
                ConfigLoader.parse(VALID).stream("s1").orElseThrow().running());
        assertEquals(
                new RunningSettings(360, false),
                ConfigLoader.parse(VALID + "    running: {windows: 360}\n")
                        .streams()
                        .get(0)
                        .running());
        assertEquals(
                new RunningSettings(0, true),
                ConfigLoader.parse(VALID + "    running: {windows: period}\n")
                        .streams()
                        .get(0)
                        .running());
        assertEquals("dpclust.running.v1", ConfigLoader.parse(VALID).kafka().runningTopic());
        for (String bad : new String[] {"1", "0", "-3", "2.5", "all", "start"}) {
            assertEquals(
                    "streams[0].running.windows",
                    option(VALID + "    running: {windows: " + bad + "}\n"),
                    bad);
        }
        assertEquals("streams[0].running.windows", option(VALID + "    running: {}\n"));
        assertEquals("streams[0].running.mode", option(VALID + "    running: {mode: tree}\n"));
        assertEquals(
                "streams[0].running",
                option(VALID + "    running: {windows: 4}\n    summaries: [ckm]\n"));
        // 64 cells x 3 longs a window: 10,922 windows fit in 2^21 longs, 10,923 do not
        String cells = VALID + "    stats: {cells: 64}\n    running: {windows: %d}\n";
        ConfigLoader.parse(cells.formatted(10_922));
        ConfigException e =
                assertThrows(
                        ConfigException.class, () -> ConfigLoader.parse(cells.formatted(10_923)));
        assertEquals("streams[0].running.windows", e.option());
        assertTrue(e.getMessage().contains("2097152"), e.getMessage());
        // a day of 10 s windows is 8,640 windows: fits at 64 cells, d = 2
        ConfigLoader.parse(VALID + "    stats: {cells: 64}\n    running: {windows: period}\n");
    }

    @Test
    void runningTreeIsOnlyForRecordUnitsUnderZcdpOverThePeriod() {
        String zcdp = VALID + "    accounting: zcdp\n    budget_delta: 1.0e-9\n";
        RunningSettings tree =
                ConfigLoader.parse(zcdp + "    running: {mode: tree}\n").streams().get(0).running();
        assertEquals(new RunningSettings(0, true, RunningSettings.Mode.TREE), tree);
        assertTrue(tree.tree());
        assertEquals(
                tree,
                ConfigLoader.parse(zcdp + "    running: {mode: tree, windows: period}\n")
                        .streams()
                        .get(0)
                        .running());
        assertEquals(
                new RunningSettings(5, false),
                ConfigLoader.parse(zcdp + "    running: {mode: sum, windows: 5}\n")
                        .streams()
                        .get(0)
                        .running());
        ConfigException device =
                assertThrows(
                        ConfigException.class,
                        () ->
                                ConfigLoader.parse(
                                        zcdp
                                                + "    running: {mode: tree}\n"
                                                + "    privacy_unit: device\n"
                                                + "    device_contribution_bound: 2\n"));
        assertEquals("streams[0].running.mode", device.option());
        assertTrue(device.getMessage().contains("mode sum for device units"), device.getMessage());
        ConfigException pure =
                assertThrows(
                        ConfigException.class,
                        () -> ConfigLoader.parse(VALID + "    running: {mode: tree}\n"));
        assertEquals("streams[0].running.mode", pure.option());
        assertTrue(pure.getMessage().contains("accounting: zcdp"), pure.getMessage());
        assertEquals(
                "streams[0].running.windows",
                option(zcdp + "    running: {mode: tree, windows: 6}\n"));
        assertEquals("streams[0].running.mode", option(zcdp + "    running: {mode: binary}\n"));
        // the tree is one more release per window: the even split counts it
        double rhoStats =
                ConfigLoader.parse(zcdp + "    running: {windows: period}\n")
                        .streams()
                        .get(0)
                        .rhoPerRelease();
        double rhoTree =
                ConfigLoader.parse(zcdp + "    running: {mode: tree}\n")
                        .streams()
                        .get(0)
                        .rhoPerRelease();
        assertEquals(rhoStats / 2, rhoTree, rhoStats * 1e-12);
    }

    @Test
    void theDecoderRunsAtTheJobParallelismUnlessSet() {
        assertEquals(0, ConfigLoader.parse(VALID).job().decodeParallelism());
        assertEquals(
                1,
                ConfigLoader.parse("job: {decode_parallelism: 1}\n" + VALID)
                        .job()
                        .decodeParallelism());
        assertEquals("job.decode_parallelism", option("job: {decode_parallelism: -1}\n" + VALID));
    }

    @Test
    void deviceUnitsCarryTheirContributionBound() {
        StreamSpec s =
                ConfigLoader.parse(
                                VALID
                                        + "    privacy_unit: device\n    device_contribution_bound: 5\n")
                        .streams()
                        .get(0);
        assertEquals(PrivacyUnit.DEVICE, s.privacyUnit());
        assertEquals(5, s.unitContribution());
        assertEquals(
                "streams[0].device_contribution_bound",
                option(VALID + "    device_contribution_bound: 5\n"));
    }

    @Test
    void saltBucketsDefaultToOneAndApplyToBothUnits() {
        assertEquals(1, ConfigLoader.parse(VALID).streams().get(0).saltBuckets());
        assertEquals(
                4,
                ConfigLoader.parse(VALID + "    salt_buckets: 4\n").streams().get(0).saltBuckets());
        assertEquals("streams[0].salt_buckets", option(VALID + "    salt_buckets: 0\n"));
        assertEquals(
                2,
                ConfigLoader.parse(VALID + "    privacy_unit: device\n    salt_buckets: 2\n")
                        .streams()
                        .get(0)
                        .saltBuckets());
    }

    @Test
    void ckmDecodeEveryDefaultsToOneAndIsRead() {
        assertEquals(1, ConfigLoader.parse(VALID).streams().get(0).ckm().decodeEvery());
        assertEquals(
                5,
                ConfigLoader.parse(VALID + "    ckm: {decode_every: 5}\n")
                        .streams()
                        .get(0)
                        .ckm()
                        .decodeEvery());
        assertEquals("streams[0].ckm.decode_every", option(VALID + "    ckm: {decode_every: 0}\n"));
    }

    /** The mask shape is no option: a stream's masks are block masks (CkmSettings). */
    @Test
    void ckmMaskIsNoLongerAnOption() {
        for (String mask : new String[] {"uniform", "block"}) {
            assertEquals(
                    "streams[0].ckm.mask", option(VALID + "    ckm: {r: 5, mask: " + mask + "}\n"));
        }
    }

    @Test
    void accountingDefaultsToPureAndParsesZcdp() {
        StreamSpec pure = ConfigLoader.parse(VALID).stream("s1").orElseThrow();
        assertEquals(BudgetAccounting.PURE, pure.accounting());
        StreamSpec z =
                ConfigLoader.parse(
                                VALID
                                        + "    accounting: zcdp\n    budget_delta: 1.0e-9\n"
                                        + "    lifetime_cap: 100\n")
                        .stream("s1")
                        .orElseThrow();
        assertEquals(org.dpclust.privacy.Accounting.ZCDP, z.accounting().mode());
        assertEquals(1e-9, z.accounting().delta());
        assertEquals(100, z.accounting().lifetimeCap());
        org.dpclust.ledger.PrivacyLedger ledger =
                org.dpclust.ledger.PrivacyLedger.of(
                        z.accounting(), z.cap(), z.budgetPeriodMillis(), false);
        assertEquals(org.dpclust.privacy.Zcdp.rhoCap(10, 1e-9), ledger.cap());
        assertEquals(org.dpclust.privacy.Zcdp.rhoCap(100, 1e-9), ledger.lifetimeCap());
    }

    @Test
    void accountingErrorsNameTheOption() {
        assertEquals("streams[0].accounting", option(VALID + "    accounting: renyi\n"));
        assertEquals("streams[0].budget_delta", option(VALID + "    accounting: zcdp\n"));
        assertEquals(
                "streams[0].budget_delta",
                option(VALID + "    accounting: zcdp\n    budget_delta: 1\n"));
        assertEquals("streams[0].budget_delta", option(VALID + "    budget_delta: 1.0e-9\n"));
        assertEquals("streams[0].lifetime_cap", option(VALID + "    lifetime_cap: 5\n"));
        assertEquals("streams[0].lifetime_cap", option(VALID + "    lifetime_cap: -1\n"));
        assertEquals("streams[0].rho_per_release", option(VALID + "    rho_per_release: 0.1\n"));
        assertEquals(
                "streams[0].rho_per_release",
                option(
                        VALID
                                + "    accounting: zcdp\n    budget_delta: 1.0e-9\n    rho_per_release: 0\n"));
    }

    @Test
    void zcdpReleasesSpendRhoPerReleaseOrTheEvenSplitOfTheRhoCap() {
        String zcdp = VALID + "    accounting: zcdp\n    budget_delta: 1.0e-9\n";
        StreamSpec pure = ConfigLoader.parse(VALID).streams().get(0);
        assertThrows(IllegalStateException.class, pure::rhoPerRelease);
        assertEquals(
                new org.dpclust.privacy.ReleaseBudget.Pure(pure.epsilonPerRelease()),
                pure.releaseBudget());
        StreamSpec fixed =
                ConfigLoader.parse(zcdp + "    rho_per_release: 0.25\n").streams().get(0);
        assertEquals(0.25, fixed.rhoPerRelease());
        assertEquals(new org.dpclust.privacy.ReleaseBudget.Zcdp(0.25), fixed.releaseBudget());
        double cap = org.dpclust.privacy.Zcdp.rhoCap(10, 1e-9);
        // record units: the per-window maximum composes, one summary may take the whole cap
        assertEquals(
                cap * (1 - 1e-9), ConfigLoader.parse(zcdp).streams().get(0).rhoPerRelease(), 0.0);
        // device units: 8,640 windows a day, two summaries
        StreamSpec device =
                ConfigLoader.parse(
                                zcdp
                                        + "    privacy_unit: device\n"
                                        + "    summaries: [stats, dp-hst]\n")
                        .streams()
                        .get(0);
        assertEquals(cap * (1 - 1e-9) / (2 * 8640), device.rhoPerRelease(), 0.0);
        // epsilon_per_release is optional under zcdp
        String noEpsilon = zcdp.replace("    epsilon_per_release: 0.5\n", "");
        assertEquals(1.0, ConfigLoader.parse(noEpsilon).streams().get(0).epsilonPerRelease());
        assertEquals(
                "streams[0].epsilon_per_release",
                option(VALID.replace("    epsilon_per_release: 0.5\n", "")));
    }

    @Test
    void theTimeRulesHavePublicDefaultsAndEachBadValueNamesItsOption() {
        JobSettings j = ConfigLoader.parse(VALID).job();
        assertEquals(java.time.Duration.ofMinutes(10), j.maxLateness());
        assertEquals(java.time.Duration.ofMinutes(1), j.maxFuture());
        assertEquals(null, j.start());
        ConfigException noStart =
                assertThrows(ConfigException.class, () -> j.requireStreamingSchedule());
        assertEquals("job.start", noStart.option());
        String timed =
                VALID.replace(
                        "kafka: {bootstrap_servers: \"b:9092\"}",
                        "kafka: {bootstrap_servers: \"b:9092\"}\njob: {%s}");
        JobSettings set =
                ConfigLoader.parse(
                                timed.formatted(
                                        "start: \"2026-01-01T00:00:00Z\", end:"
                                                + " \"2026-01-02T00:00:00Z\", max_lateness: PT5M,"
                                                + " max_future: PT0S"))
                        .job();
        assertEquals(java.time.Instant.parse("2026-01-01T00:00:00Z"), set.start());
        assertEquals(java.time.Instant.parse("2026-01-02T00:00:00Z"), set.end());
        assertEquals(java.time.Duration.ofMinutes(5), set.maxLateness());
        assertEquals(java.time.Duration.ZERO, set.maxFuture());
        set.requireStreamingSchedule();
        assertEquals(
                "job.end",
                assertThrows(
                                ConfigException.class,
                                () ->
                                        ConfigLoader.parse(
                                                        timed.formatted(
                                                                "start: \"2026-01-01T00:00:00Z\","
                                                                        + " bounded_input: true"))
                                                .job()
                                                .requireStreamingSchedule())
                        .option());
        assertEquals("job.start", option(timed.formatted("start: yesterday")));
        assertEquals("job.start", option(timed.formatted("end: \"2026-01-01T00:00:00Z\"")));
        assertEquals(
                "job.end",
                option(
                        timed.formatted(
                                "start: \"2026-01-01T00:00:00Z\", end: \"2026-01-01T00:00:00Z\"")));
        assertEquals("job.max_lateness", option(timed.formatted("max_lateness: PT-1S")));
        assertEquals("job.max_future", option(timed.formatted("max_future: PT-1S")));
        assertEquals("job.max_future", option(timed.formatted("max_future: soon")));
    }
}
