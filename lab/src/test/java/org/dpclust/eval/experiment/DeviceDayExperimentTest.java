package org.dpclust.eval.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpclust evaluate device-day --quick}: its rows, its report and plots, and the ordering the
 * experiment exists to show (zCDP below pure ε, the running release below per-window zCDP).
 */
class DeviceDayExperimentTest {
    @Test
    void quickRunWritesTheReportAndZcdpBeatsPure(@TempDir Path out) throws Exception {
        List<JsonNode> rows =
                EvaluateRun.jsonRows("device-day", "--quick", "--json", "--out", out.toString());
        DeviceDayExperiment.Sizes z = DeviceDayExperiment.sizes(true).get(0);
        // rows every 60 windows and the last one, per variant
        int printed = (z.windows() - 1) / 60 + 1 + ((z.windows() - 1) % 60 == 0 ? 0 : 1);
        assertEquals(4 * printed, rows.size());
        double pure = 0;
        double zcdp = 0;
        double running = 0;
        double oracle = 0;
        for (JsonNode r : rows) {
            double e = r.get("matched_error").asDouble();
            switch (r.get("variant").asText()) {
                case "pure" -> pure += e;
                case "zcdp" -> zcdp += e;
                case "zcdp-running" -> running += e;
                default -> oracle += e;
            }
        }
        assertTrue(zcdp < pure, "zcdp " + zcdp + " vs pure " + pure);
        assertTrue(running < pure, "running " + running + " vs pure " + pure);
        // the reference (cells = the true clusters) is at least as good as the public cells
        assertTrue(oracle < zcdp, "oracle " + oracle + " vs zcdp " + zcdp);
        String md = Files.readString(out.resolve("README.md"));
        assertTrue(md.contains("quick configuration"));
        assertTrue(md.contains("Budget trajectory"));
        assertTrue(Files.size(out.resolve("matched_error_per_hour_10000_devices.png")) > 0);
        assertTrue(Files.size(out.resolve("budget_trajectory.png")) > 0);
    }
}
