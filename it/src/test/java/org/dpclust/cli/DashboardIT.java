package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.SecretSource;
import org.dpclust.config.TopicFormats;
import org.dpclust.config.WireFormat;
import org.dpclust.dashboard.DashboardPage;
import org.dpclust.dashboard.DashboardServer;
import org.dpclust.dashboard.DashboardState;
import org.dpclust.devkit.EmbeddedKafka;
import org.dpclust.devkit.SyntheticTelemetry;
import org.dpclust.devkit.TelemetryProducer;
import org.dpclust.io.AvroCodec;
import org.dpclust.jobs.LocalCluster;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.kafka.TopicAdmin;
import org.dpclust.kafka.TopicReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real browser during the demo pipeline: an in-process KRaft broker, the demo's
 * two streams (2-D and 3-D) of synthetic telemetry, the streaming job in a Flink MiniCluster, and a
 * {@link DashboardServer} following the topics from before the job starts (releases in the json
 * format, budget events in Avro: both decoders). Headless Chromium (Debian's {@code
 * /usr/bin/chromium}; the test fails if it is missing) loads the page; the dumped DOM must draw
 * every release read back from the centroids topic with its exact released coordinates, at the
 * position the declared domain maps them to, each release's epsilon bar and its window's spent and
 * cap point (the few windows here all fit in the page's trail), each centroid in the colour the
 * server matched it to and hollow if it has zero weight. A plain HTTP GET (no script run) sees "no
 * releases yet" before the job and then each stream's latest window and centroid values. Writes a
 * screenshot to target/dashboard.png (docs/results/dashboard.png is a committed copy). A second
 * test draws hand-made releases: a cluster keeps its colour when a release lists its centroids in
 * another order, and a zero-weight centroid is drawn as a hollow ring.
 */
class DashboardIT {
    private static final int WINDOWS = 13; // more bars than fit labels: the label test needs them
    private static final Pattern ATTR = Pattern.compile("([\\w:-]+)=\"([^\"]*)\"");
    private static final Pattern SCATTER =
            Pattern.compile("<svg\\b([^>]*\\bclass=\"scatter\"[^>]*)>(.*?)</svg>", Pattern.DOTALL);
    private static final Pattern CIRCLE = Pattern.compile("<circle\\b([^>]*)>");
    private static final Pattern BUDGET_SVG =
            Pattern.compile("<svg\\b([^>]*\\bclass=\"budget\"[^>]*)>(.*?)</svg>", Pattern.DOTALL);
    private static final Pattern RECT_EPS = Pattern.compile("<rect\\b[^>]*class=\"epsilon\"");

    private static int count(Pattern p, String s) {
        Matcher m = p.matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static final Pattern RECT = Pattern.compile("<rect\\b([^>]*)>");

    @TempDir Path tmp;

    @Test
    @Timeout(300)
    void browserDrawsEveryReleaseOfTheDemo() throws Exception {
        Path chromium = chromium();
        ObjectMapper json = new ObjectMapper();
        DpclustConfig base = DemoCommand.demoConfig();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            DpclustConfig cfg =
                    DemoCommand.scheduled(
                                    base.withKafka(
                                            base.kafka()
                                                    .withBootstrapServers(
                                                            kafka.bootstrapServers())),
                                    WINDOWS) // the demo's schedule: WINDOWS windows from its start
                            // releases in the json format, the budget in Avro: the dashboard
                            // reads both (docs/wire-format.md)
                            .withFormats(
                                    new TopicFormats(
                                            WireFormat.JSON, WireFormat.AVRO, WireFormat.AVRO));
            TopicAdmin.ensureTopics(cfg.kafka(), 2);
            try (DashboardServer dashboard =
                    new DashboardServer(
                                    KafkaConnection.plaintext(kafka.bootstrapServers()),
                                    cfg.kafka().centroidsTopic(),
                                    cfg.kafka().budgetTopic(),
                                    cfg.kafka().dlqTopic(),
                                    0)
                            .start()) {
                // before any release, the page without JavaScript says so
                String empty = withoutScripts(get(dashboard.url()));
                assertTrue(empty.contains("no releases yet"), "before any release:\n" + empty);
                // the demo: synthetic telemetry, then the streaming job in a MiniCluster, while the
                // dashboard follows
                SyntheticTelemetry scenario =
                        new SyntheticTelemetry(
                                cfg.streams(),
                                DemoCommand.START.toEpochMilli(),
                                WINDOWS,
                                2000,
                                4,
                                500,
                                2026);
                try (TelemetryProducer producer =
                        new TelemetryProducer(kafka.bootstrapServers(), cfg.kafka().inputTopic())) {
                    scenario.write(producer);
                }
                byte[] key = new byte[32];
                new SecureRandom().nextBytes(key);
                StreamExecutionEnvironment env =
                        StreamExecutionEnvironment.createLocalEnvironment(1, LocalCluster.config());
                JobClient job =
                        StreamingJob.fromKafka(cfg, SecretSource.temporaryFile(key))
                                .executeAsync(env);
                job.getJobExecutionResult().get(240, TimeUnit.SECONDS);

                List<CentroidRelease> releases = new ArrayList<>();
                AvroCodec<CentroidRelease> codec = AvroCodec.centroids();
                try (TopicReader reader =
                        new TopicReader(kafka.bootstrapServers(), cfg.kafka().centroidsTopic())) {
                    for (var r : reader.readToEnd(Duration.ofSeconds(30))) {
                        assertEquals((byte) '{', r.value()[0], "a release in the json format");
                        releases.add(codec.decodePublished(r.value()));
                    }
                }
                Set<String> budgetKeys = new TreeSet<>();
                AvroCodec<BudgetStatus> budget = AvroCodec.budget();
                try (TopicReader reader =
                        new TopicReader(kafka.bootstrapServers(), cfg.kafka().budgetTopic())) {
                    for (var r : reader.readToEnd(Duration.ofSeconds(30))) {
                        BudgetStatus b = budget.decode(r.value());
                        if (b.getKind() == BudgetEventKind.MARKER) {
                            continue; // the ledger's own high-water mark, not a budget event
                        }
                        budgetKeys.add(
                                b.getStreamId()
                                        + "|"
                                        + b.getWindowStart()
                                        + "|"
                                        + b.getKind()
                                        + "|"
                                        + b.getAlgorithm());
                    }
                }
                assertEquals(
                        WINDOWS * cfg.streams().size(),
                        releases.size(),
                        "releases on the centroids topic");

                JsonNode state = awaitState(dashboard, json, releases.size());
                assertEquals(0, state.get("undecodable").asLong());
                int events = 0;
                for (JsonNode s : state.get("streams")) {
                    events += s.get("budget_events").size();
                }
                assertEquals(
                        budgetKeys.size(),
                        events,
                        "budget events served, one per ledger key: " + budgetKeys);

                // the dead-letter topic as it is: rejected records per stream and reason
                Map<String, Map<String, Long>> dead = new TreeMap<>();
                AvroCodec<RejectedRecord> rejected = AvroCodec.rejected();
                try (TopicReader reader =
                        new TopicReader(kafka.bootstrapServers(), cfg.kafka().dlqTopic())) {
                    for (var r : reader.readToEnd(Duration.ofSeconds(30))) {
                        RejectedRecord d = rejected.decodePublished(r.value());
                        String id =
                                d.getStreamId() == null || d.getStreamId().isEmpty()
                                        ? DashboardState.NO_STREAM
                                        : d.getStreamId();
                        dead.computeIfAbsent(id, k -> new TreeMap<>())
                                .merge(d.getReason(), 1L, Long::sum);
                    }
                }
                assertTrue(
                        dead.getOrDefault(DashboardState.NO_STREAM, Map.of())
                                        .getOrDefault("undecodable", 0L)
                                > 0,
                        "the demo's malformed records: " + dead);
                JsonNode rej = awaitRejected(dashboard, json, dead);
                assertTrue(rej.get("followed").asBoolean());

                String noScript = withoutScripts(get(dashboard.url()));
                assertServerRendered(noScript, releases);
                assertTrue(noScript.contains("Operator-side, never published"), noScript);
                dead.forEach(
                        (id, reasons) ->
                                reasons.forEach(
                                        (reason, n) ->
                                                assertTrue(
                                                        noScript.contains(
                                                                "<tr><td>"
                                                                        + DashboardPage.esc(id)
                                                                        + "</td><td>"
                                                                        + reason
                                                                        + "</td><td>"
                                                                        + n
                                                                        + "</td></tr>"),
                                                        id
                                                                + " "
                                                                + reason
                                                                + " "
                                                                + n
                                                                + " listed:\n"
                                                                + noScript)));
                String dom = runChromium(chromium, "--dump-dom", dashboard.url());
                assertTrue(
                        dom.contains("Operator-side, never published"),
                        "the live view marks the counts");
                dead.forEach(
                        (id, reasons) ->
                                reasons.forEach(
                                        (reason, n) -> {
                                            Matcher row =
                                                    Pattern.compile(
                                                                    "<tr data-stream=\""
                                                                            + Pattern.quote(
                                                                                    DashboardPage
                                                                                            .esc(
                                                                                                    id))
                                                                            + "\" data-reason=\""
                                                                            + Pattern.quote(reason)
                                                                            + "\"><td>[^<]*</td><td>[^<]*</td><td>(\\d+)</td></tr>")
                                                            .matcher(dom);
                                            assertTrue(
                                                    row.find(),
                                                    id + " " + reason + " drawn by the script");
                                            assertEquals(
                                                    n,
                                                    Long.parseLong(row.group(1)),
                                                    id + " " + reason);
                                        }));
                assertDrawn(dom, releases, json, state);
                // 12 bars per budget chart, their value labels measured by Chromium's layout
                Matcher budgets = BUDGET_SVG.matcher(dom);
                int charts = 0;
                while (budgets.find()) {
                    Map<String, String> a = attrs(budgets.group(1));
                    charts++;
                    assertEquals("0", a.get("data-label-overlaps"), "bar labels overlap: " + a);
                    assertTrue(Integer.parseInt(a.get("data-labels")) >= 1, "bars labelled: " + a);
                    assertEquals(12, count(RECT_EPS, budgets.group(2)), "12 bars: " + a);
                    // ε and spend each on their own panel: every spend dot below every ε bar
                    double lowestBar = Double.NEGATIVE_INFINITY;
                    Matcher bars = Pattern.compile("<rect\\b([^>]*)>").matcher(budgets.group(2));
                    while (bars.find()) {
                        Map<String, String> r = attrs(bars.group(1));
                        if ("epsilon".equals(r.get("class"))) {
                            lowestBar = Math.max(lowestBar, num(r, "y") + num(r, "height"));
                        }
                    }
                    Matcher dots = CIRCLE.matcher(budgets.group(2));
                    int spent = 0;
                    while (dots.find()) {
                        Map<String, String> c = attrs(dots.group(1));
                        if ("spent".equals(c.get("class"))) {
                            spent++;
                            assertTrue(
                                    num(c, "cy") > lowestBar + 10,
                                    "spend dot "
                                            + c
                                            + " in the ε panel (bars end at "
                                            + lowestBar
                                            + ")");
                        }
                    }
                    assertEquals(12, spent, "a spend dot per shown window: " + a);
                }
                assertEquals(cfg.streams().size(), charts, "a budget chart per stream");

                Path png =
                        Path.of(System.getProperty("basedir", "."))
                                .resolve("target/dashboard.png")
                                .toAbsolutePath();
                Files.createDirectories(png.getParent());
                long before = System.currentTimeMillis();
                runChromium(chromium, "--screenshot=" + png, dashboard.url());
                assertTrue(
                        Files.isRegularFile(png)
                                && Files.getLastModifiedTime(png).toMillis() >= before - 2000,
                        "screenshot written to " + png);
                assertScreenshotShowsCentroids(png.toFile());
            }
        }
    }

    /**
     * Hand-made releases (added to the server's state; the follower finds no topics): window 1
     * lists the clusters of window 0 in reverse order, moved a little, and one of them with zero
     * weight. Chromium must draw each cluster in one colour across both windows, two clusters in
     * two colours, and the zero-weight centroid as a hollow ring that the legend explains.
     */
    @Test
    @Timeout(180)
    void browserKeepsAClustersColourAcrossWindowsAndDrawsZeroWeightHollow() throws Exception {
        Path chromium = chromium();
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                DashboardServer dashboard =
                        new DashboardServer(kafka.bootstrapServers(), "c-none", "b-none", 0)
                                .start()) {
            Instant t0 = Instant.parse("2026-05-01T10:00:00Z");
            List<List<Double>> w0 = List.of(List.of(10.0, 10.0), List.of(80.0, 70.0));
            List<List<Double>> w1 = List.of(List.of(78.0, 73.0), List.of(12.0, 9.0));
            dashboard.state().add(handMade(t0, w0, List.of(40.0, 55.0)));
            dashboard.state().add(handMade(t0.plusSeconds(60), w1, List.of(0.0, 48.0)));
            String dom = runChromium(chromium, "--dump-dom", dashboard.url());
            Matcher svg = SCATTER.matcher(dom);
            assertTrue(svg.find(), "a scatter plot:\n" + dom);
            Map<String, Map<String, String>> byPoint = new HashMap<>();
            Matcher c = CIRCLE.matcher(svg.group(2));
            while (c.find()) {
                Map<String, String> a = attrs(c.group(1));
                byPoint.put(a.get("data-coords"), a);
            }
            assertEquals(4, byPoint.size(), "four centroids: " + byPoint.keySet());
            Map<String, String> a0 = byPoint.get("[10,10]"), b0 = byPoint.get("[80,70]");
            Map<String, String> b1 = byPoint.get("[78,73]"), a1 = byPoint.get("[12,9]");
            // cluster a (near (10, 10)) and cluster b (near (80, 70)) keep their colours
            assertEquals(a0.get("fill"), a1.get("fill"), "cluster a in window 1: " + a1);
            assertNotEquals(a0.get("fill"), b0.get("fill"), "two clusters, two colours");
            // b has no mass in window 1: a hollow dashed ring in b's colour
            assertEquals("none", b1.get("fill"), "zero weight is hollow: " + b1);
            assertEquals(b0.get("fill"), b1.get("stroke"), "in its cluster's colour: " + b1);
            assertTrue(b1.get("class").contains("zero-weight"), b1.get("class"));
            assertNotEquals("none", b1.get("stroke-dasharray"), "dashed: " + b1);
            assertNotEquals("none", a1.get("fill"), "a weighted centroid is filled: " + a1);
            assertFalse(a1.get("class").contains("zero-weight"), a1.get("class"));
            Matcher legend =
                    Pattern.compile("<p class=\"meta legend-note\">([^<]*)</p>").matcher(dom);
            assertTrue(legend.find(), "legend:\n" + dom);
            assertTrue(legend.group(1).contains("zero-weight"), legend.group(1));
        }
    }

    private static CentroidRelease handMade(
            Instant start, List<List<Double>> centroids, List<Double> weights) {
        return CentroidRelease.newBuilder()
                .setStreamId("hand-made")
                .setWindowStart(start)
                .setWindowEnd(start.plusSeconds(60))
                .setAlgorithm("stats")
                .setMode("stream")
                .setK(centroids.size())
                .setCentroids(centroids)
                .setWeights(weights)
                .setEpsilon(0.5)
                .setSpent(0.5)
                .setCap(5.0)
                .setBudgetPeriodStart(start)
                .setBudgetPeriodEnd(start.plusSeconds(86_400))
                .setNeighbouring("add-remove")
                .setPrivacyUnit("record")
                .setGuarantee("dp")
                .setDomainLower(List.of(0.0, 0.0))
                .setDomainUpper(List.of(100.0, 100.0))
                .build();
    }

    /**
     * Every recent release drawn with its released values, placed by the declared domain (the
     * latest and 8 before it); per release of the last 12 an epsilon bar, and a point of the
     * window's cumulative spend with the cap.
     */
    private static void assertDrawn(
            String dom, List<CentroidRelease> releases, ObjectMapper json, JsonNode state)
            throws IOException {
        Map<String, JsonNode> colours = new HashMap<>(); // stream|window start|algorithm
        for (JsonNode s : state.get("streams")) {
            for (JsonNode r : s.get("releases")) {
                colours.put(
                        r.get("stream_id").asText()
                                + "|"
                                + r.get("window_start").asText()
                                + "|"
                                + r.get("algorithm").asText(),
                        r.get("colours"));
            }
        }
        Map<String, String> fillOfColour = new HashMap<>();
        Map<String, List<Map<String, String>>> circlesByStream = new HashMap<>();
        Map<String, Map<String, String>> domainByStream = new HashMap<>();
        Matcher svg = SCATTER.matcher(dom);
        while (svg.find()) {
            String stream = attrs(svg.group(1)).get("data-stream");
            Matcher c = CIRCLE.matcher(svg.group(2));
            List<Map<String, String>> circles = new ArrayList<>();
            while (c.find()) {
                circles.add(attrs(c.group(1)));
            }
            circlesByStream.put(stream, circles);
            Matcher r = RECT.matcher(svg.group(2));
            while (r.find()) {
                Map<String, String> a = attrs(r.group(1));
                if ("domain".equals(a.get("class"))) {
                    domainByStream.put(stream, a);
                }
            }
        }
        Set<String> streams =
                releases.stream()
                        .map(CentroidRelease::getStreamId)
                        .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(streams, circlesByStream.keySet(), "one plot per stream in the DOM:\n" + dom);

        Map<String, CentroidRelease> latest = new HashMap<>();
        for (CentroidRelease r : releases) {
            latest.merge(
                    r.getStreamId(),
                    r,
                    (a, b) -> a.getWindowStart().isAfter(b.getWindowStart()) ? a : b);
        }
        // the scatter shows a stream's latest release and 8 before it; the budget chart its last 12
        Map<CentroidRelease, Integer> age = new HashMap<>();
        for (String stream : streams) {
            List<CentroidRelease> mine =
                    releases.stream()
                            .filter(r -> r.getStreamId().equals(stream))
                            .sorted((a, b) -> b.getWindowStart().compareTo(a.getWindowStart()))
                            .toList();
            for (int i = 0; i < mine.size(); i++) {
                age.put(mine.get(i), i);
            }
        }
        int drawn = 0, expectedDrawn = 0;
        for (CentroidRelease r : releases) {
            String stream = r.getStreamId();
            boolean inScatter = age.get(r) <= 8, inBars = age.get(r) < 12;
            List<Map<String, String>> mine =
                    circlesByStream.get(stream).stream()
                            .filter(
                                    a ->
                                            a.get("data-window-start")
                                                            .equals(r.getWindowStart().toString())
                                                    && a.get("data-window-end")
                                                            .equals(r.getWindowEnd().toString())
                                                    && a.get("data-algorithm")
                                                            .equals(r.getAlgorithm()))
                            .toList();
            assertEquals(
                    inScatter ? r.getCentroids().size() : 0,
                    mine.size(),
                    stream + " " + r.getWindowStart() + ": one circle per centroid, if recent");
            expectedDrawn += inScatter ? r.getCentroids().size() : 0;
            Map<String, String> domain = domainByStream.get(stream);
            assertNotNull(domain, stream + ": domain rectangle");
            double x0 = num(domain, "x"),
                    y0 = num(domain, "y"),
                    w = num(domain, "width"),
                    h = num(domain, "height");
            List<Double> lo = r.getDomainLower(), hi = r.getDomainUpper();
            for (Map<String, String> a : mine) {
                int j = Integer.parseInt(a.get("data-index"));
                List<Double> released = r.getCentroids().get(j);
                double[] coords = json.readValue(a.get("data-coords"), double[].class);
                assertEquals(
                        released.size(), coords.length, stream + " centroid " + j + ": dimension");
                for (int i = 0; i < coords.length; i++) {
                    assertEquals(
                            released.get(i),
                            coords[i],
                            0.0,
                            stream + " " + r.getWindowStart() + " centroid " + j + "[" + i + "]");
                }
                double cx = x0 + (released.get(0) - lo.get(0)) / (hi.get(0) - lo.get(0)) * w;
                double cy = y0 + h - (released.get(1) - lo.get(1)) / (hi.get(1) - lo.get(1)) * h;
                assertEquals(cx, num(a, "cx"), 1e-6, stream + " centroid " + j + ": x position");
                assertEquals(
                        cy,
                        num(a, "cy"),
                        1e-6,
                        stream + " centroid " + j + ": y position (first two coordinates)");
                assertEquals(
                        String.valueOf(r == latest.get(stream)),
                        a.get("data-latest"),
                        "latest flag");
                // the colour the server matched, one fill per colour; hollow if no mass
                JsonNode served =
                        colours.get(stream + "|" + r.getWindowStart() + "|" + r.getAlgorithm());
                assertNotNull(served, "colours served for " + r.getWindowStart());
                assertEquals(served.get(j).asText(), a.get("data-colour"), "colour of " + j);
                boolean noMass = j < r.getWeights().size() && r.getWeights().get(j) <= 0;
                assertEquals(noMass, a.get("class").contains("zero-weight"), "class: " + a);
                if (noMass) {
                    assertEquals("none", a.get("fill"), "a zero-weight centroid is hollow: " + a);
                } else {
                    String other = fillOfColour.putIfAbsent(a.get("data-colour"), a.get("fill"));
                    assertEquals(
                            other == null ? a.get("fill") : other, a.get("fill"), "fill: " + a);
                }
                drawn++;
            }
            List<Map<String, String>> bars = drawnFor(RECT, "epsilon", dom, stream, r);
            if (!inBars) {
                assertEquals(0, bars.size(), stream + " " + r.getWindowStart() + ": not charted");
                continue;
            }
            assertEquals(1, bars.size(), stream + " " + r.getWindowStart() + ": one epsilon bar");
            assertEquals(r.getEpsilon(), num(bars.get(0), "data-epsilon"), 0.0, "epsilon");
            List<Map<String, String>> spent = drawnFor(CIRCLE, "spent", dom, stream, r);
            assertEquals(1, spent.size(), stream + " " + r.getWindowStart() + ": one spent point");
            assertEquals(r.getSpent(), num(spent.get(0), "data-spent"), 0.0, "spent");
            assertEquals(r.getCap(), num(spent.get(0), "data-cap"), 0.0, "cap");
        }
        assertEquals(expectedDrawn, drawn);
        Map<Integer, String> fillOfSlot = new HashMap<>(); // the page's palette has 10 colours
        fillOfColour.forEach((c, f) -> fillOfSlot.put(Integer.parseInt(c) % 10, f));
        assertEquals(
                fillOfSlot.size(),
                new TreeSet<>(fillOfSlot.values()).size(),
                "distinct palette slots, distinct fills: " + fillOfColour);
        for (String stream : streams) {
            int d = latest.get(stream).getDomainLower().size();
            Matcher p =
                    Pattern.compile(
                                    "<p\\b[^>]*class=\"projection\"[^>]*data-dimension=\""
                                            + d
                                            + "\"[^>]*>([^<]*)</p>")
                            .matcher(dom.substring(dom.indexOf("data-stream=\"" + stream + "\"")));
            assertTrue(p.find(), stream + ": projection note");
            assertEquals(
                    d > 2,
                    p.group(1).contains("projection onto the first two coordinates"),
                    stream + ": " + p.group(1));
        }
    }

    /**
     * The page as served, with no script run: each stream's latest window (start and end) and its
     * first centroid's exact first coordinate; no "no releases yet".
     */
    private static void assertServerRendered(String html, List<CentroidRelease> releases) {
        assertFalse(html.contains("no releases yet"), html);
        Map<String, CentroidRelease> latest = new HashMap<>();
        for (CentroidRelease r : releases) {
            latest.merge(
                    r.getStreamId(),
                    r,
                    (a, b) -> a.getWindowStart().isAfter(b.getWindowStart()) ? a : b);
        }
        for (CentroidRelease r : latest.values()) {
            int section = html.indexOf("<h2>" + r.getStreamId() + "</h2>");
            assertTrue(section >= 0, r.getStreamId() + " listed:\n" + html);
            // the stream's own table: streams share window starts
            int at = html.indexOf("<tr><td>" + r.getWindowStart() + "</td>", section);
            assertTrue(at >= 0, r.getStreamId() + " latest window listed:\n" + html);
            int next = html.indexOf("<h2>", section + 1);
            assertTrue(next < 0 || at < next, r.getStreamId() + ": in its own table");
            String row = html.substring(at, html.indexOf("</tr>", at));
            assertTrue(row.contains(r.getWindowEnd().toString()), "window end: " + row);
            assertTrue(
                    row.contains(Double.toString(r.getCentroids().get(0).get(0))),
                    "centroid value: " + row);
        }
    }

    /** What a browser without JavaScript shows: the page minus its script. */
    /**
     * The served rejected counts once they equal the dead-letter topic's (the follower reads it
     * while this test reads it too); fails with both after 60 s.
     */
    private static JsonNode awaitRejected(
            DashboardServer dashboard, ObjectMapper json, Map<String, Map<String, Long>> expected)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            JsonNode rej =
                    json.readTree(get(dashboard.url() + "api/state", "application/json"))
                            .get("rejected");
            Map<String, Map<String, Long>> served = new TreeMap<>();
            for (JsonNode s : rej.get("by_stream")) {
                Map<String, Long> reasons = new TreeMap<>();
                s.get("reasons")
                        .fields()
                        .forEachRemaining(e -> reasons.put(e.getKey(), e.getValue().asLong()));
                served.put(s.get("stream_id").asText(), reasons);
            }
            if (served.equals(expected)) {
                return rej;
            }
            assertTrue(System.nanoTime() < deadline, "served " + served + ", topic " + expected);
            Thread.sleep(200);
        }
    }

    private static String withoutScripts(String html) {
        assertTrue(html.contains("<script>"), "the page has its script");
        return html.replaceAll("(?s)<script>.*?</script>", "");
    }

    private static String get(String url) throws Exception {
        return get(url, "text/html");
    }

    private static String get(String url, String type) throws Exception {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(url)).build(),
                                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url);
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith(type));
        return r.body();
    }

    /**
     * The demo's latest centroids use the page's first colour (#1f77b4): it must appear in the
     * screenshot.
     */
    private static void assertScreenshotShowsCentroids(File png) throws IOException {
        BufferedImage img = ImageIO.read(png);
        assertNotNull(img, "a PNG: " + png);
        assertEquals(1200, img.getWidth());
        int blue = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
                if (Math.abs(r - 0x1f) < 24 && Math.abs(g - 0x77) < 24 && Math.abs(b - 0xb4) < 24) {
                    blue++;
                }
            }
        }
        assertTrue(blue > 100, "centroid-coloured pixels in the screenshot: " + blue);
    }

    private static JsonNode awaitState(DashboardServer dashboard, ObjectMapper json, int releases)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            String body =
                    http.send(
                                    HttpRequest.newBuilder(
                                                    URI.create(dashboard.url() + "api/state"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
            JsonNode state = json.readTree(body);
            int n = 0;
            for (JsonNode s : state.get("streams")) {
                n += s.get("releases").size();
            }
            if (n >= releases) {
                assertEquals(releases, n, "releases served by /api/state");
                return state;
            }
            if (System.nanoTime() > deadline) {
                fail("the dashboard served " + n + " of " + releases + " releases: " + body);
            }
            Thread.sleep(200);
        }
    }

    /** The elements of {@code kind} (class) drawn for release {@code r} of {@code stream}. */
    private static List<Map<String, String>> drawnFor(
            Pattern element, String kind, String dom, String stream, CentroidRelease r) {
        List<Map<String, String>> found = new ArrayList<>();
        Matcher m = element.matcher(dom);
        while (m.find()) {
            Map<String, String> a = attrs(m.group(1));
            if (kind.equals(a.get("class"))
                    && stream.equals(a.get("data-stream"))
                    && r.getWindowStart().toString().equals(a.get("data-window-start"))) {
                found.add(a);
            }
        }
        return found;
    }

    private String runChromium(Path chromium, String mode, String url) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        Path out = tmp.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = tmp.resolve("chromium-" + System.nanoTime() + ".err");
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                chromium.toString(),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--hide-scrollbars",
                                "--user-data-dir=" + profile,
                                "--virtual-time-budget=8000",
                                "--window-size=1200,800",
                                mode,
                                url));
        Process p =
                new ProcessBuilder(cmd)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish in 120 s: " + Files.readString(err));
        }
        assertEquals(0, p.exitValue(), "chromium " + mode + ": " + Files.readString(err));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /**
     * Debian's chromium on the PATH or at /usr/bin/chromium; a missing browser fails the test
     * (.ci/run installs it).
     */
    private static Path chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, "chromium");
            if (!dir.isEmpty() && Files.isExecutable(p)) {
                return p;
            }
        }
        Path p = Path.of("/usr/bin/chromium");
        assertTrue(
                Files.isExecutable(p),
                "headless Chromium is required: apt-get install -y chromium (.ci/run does)");
        return p;
    }

    private static Map<String, String> attrs(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ATTR.matcher(s);
        while (m.find()) {
            out.put(
                    m.group(1),
                    m.group(2)
                            .replace("&quot;", "\"")
                            .replace("&lt;", "<")
                            .replace("&gt;", ">")
                            .replace("&amp;", "&"));
        }
        return out;
    }

    private static double num(Map<String, String> a, String name) {
        String v = a.get(name);
        assertNotNull(v, "attribute " + name + " in " + a);
        assertFalse(v.isBlank(), name);
        return Double.parseDouble(v);
    }
}
