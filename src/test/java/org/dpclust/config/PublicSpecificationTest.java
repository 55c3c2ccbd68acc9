package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.Mechanisms;
import org.dpclust.window.PublicParameters;
import org.junit.jupiter.api.Test;

/**
 * Every configuration option of a stream and of the job is classified: PINNED (part of what a
 * stream's state promises, saved and checked at restore by the savepoint guard) or declared why a
 * change across a restore is safe. For each option the test changes it alone and checks the claim:
 * a pinned option changes the saved line, any other leaves it unchanged. A new option that is in
 * neither list fails the build, so the next forgotten field cannot slip through (issue 33).
 */
class PublicSpecificationTest {
    enum Kind {
        /** in the saved public parameters: a restore under another value is refused */
        PINNED,
        /** read when a window is released, no state is built under it */
        RELEASE_TIME,
        /** budget policy, applied per charge against the ledger's recorded totals */
        LEDGER_POLICY,
        /** operator-side: scheduling, parallelism, checkpoints; no released byte depends on it */
        OPERATOR_SIDE,
        /** the stream's identity itself */
        IDENTITY
    }

    /**
     * One option's classification, the mode it is checked in (paths set on the base: e.g. device
     * units for the device bound) and the values that change it alone (path → YAML value).
     */
    record Case(Kind kind, Map<String, Object> mode, Map<String, Object> change) {}

    private static final Map<String, Case> CASES = new TreeMap<>();

    private static void c(String option, Kind kind, Object... pathsAndValues) {
        m(option, kind, new Object[0], pathsAndValues);
    }

    /** As {@link #c}, checked in the mode {@code mode} sets on the base. */
    private static void m(String option, Kind kind, Object[] mode, Object... pathsAndValues) {
        CASES.put(option, new Case(kind, map(mode), map(pathsAndValues)));
    }

    private static Map<String, Object> map(Object[] pathsAndValues) {
        Map<String, Object> out = new TreeMap<>();
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            out.put((String) pathsAndValues[i], pathsAndValues[i + 1]);
        }
        return out;
    }

    static {
        Kind P = Kind.PINNED;
        c("id", Kind.IDENTITY);
        c(
                "dimension",
                P,
                "dimension",
                3,
                "lower",
                new int[] {0, 0, 0},
                "upper",
                new int[] {1, 1, 1});
        c("lower", P, "lower", new double[] {-1, 0});
        c("upper", P, "upper", new double[] {1, 2});
        c("k", P, "k", 3);
        c("window", P, "window", "PT20S");
        c("epsilon_per_release", P, "epsilon_per_release", 0.5);
        c("budget_cap", Kind.LEDGER_POLICY, "budget_cap", 20);
        c("budget_period", Kind.LEDGER_POLICY, "budget_period", "PT12H");
        c("privacy_unit", P, "privacy_unit", "device");
        m(
                "device_contribution_bound",
                P,
                new Object[] {"privacy_unit", "device"},
                "device_contribution_bound",
                3);
        c("summaries", P, "summaries", new String[] {"stats"});
        c("public_seed", P, "public_seed", 7);
        c(
                "initial_centroids",
                Kind.RELEASE_TIME,
                "initial_centroids",
                new double[][] {{0.1, 0.1}, {0.9, 0.9}});
        c(
                "salt_buckets",
                Kind.OPERATOR_SIDE,
                "salt_buckets",
                4); // record units: byte-identical for any S
        c("accounting", P, "accounting", "zcdp", "budget_delta", 1e-6);
        m(
                "budget_delta",
                P,
                new Object[] {"accounting", "zcdp", "budget_delta", 1e-6},
                "budget_delta",
                1e-9); // moves the even split's ρ
        c("lifetime_cap", Kind.LEDGER_POLICY, "lifetime_cap", 100);
        m(
                "rho_per_release",
                P,
                new Object[] {"accounting", "zcdp", "budget_delta", 1e-6},
                "rho_per_release",
                0.01);
        c("stats.cells", P, "stats.cells", 32);
        m(
                "stats.count_fraction",
                P,
                new Object[] {"running.windows", 3},
                "stats.count_fraction",
                0.2); // labels of a running sum; release-time without one
        c("stats.update", Kind.RELEASE_TIME, "stats.update", "expdp-zone");
        c("stats.publish_cells", Kind.RELEASE_TIME, "stats.publish_cells", true);
        c(
                "stats.records_hint",
                P,
                "stats.cells",
                null,
                "stats.records_hint",
                100_000); // sets the cells
        c("ckm.m", P, "ckm.m", 32);
        c("ckm.r", P, "ckm.r", 4);
        c("ckm.law", P, "ckm.law", "adapted-radius");
        c("ckm.sigma", P, "ckm.sigma", 0.5);
        c("ckm.count_fraction", Kind.RELEASE_TIME, "ckm.count_fraction", 0.2);
        c("ckm.replicates", Kind.RELEASE_TIME, "ckm.replicates", 2);
        c("ckm.warm_start", Kind.RELEASE_TIME, "ckm.warm_start", true);
        c("ckm.decode_every", Kind.RELEASE_TIME, "ckm.decode_every", 2);
        c("hst.universe", P, "hst.universe", 128);
        c("hst.max_levels", P, "hst.max_levels", 4);
        c("hst.snap", P, "hst.snap", "nearest");
        m(
                "running.windows",
                Kind.RELEASE_TIME,
                new Object[] {"running.windows", 3},
                "running.windows",
                5); // span of public noisy cells
        m(
                "running.mode",
                P,
                new Object[] {"accounting", "zcdp", "budget_delta", 1e-6},
                "running.mode",
                "tree");
        c("job.start", P, "job.start", "2026-12-01T00:01:00Z");
        c("job.end", P, "job.end", "2026-12-02T00:00:00Z");
        c("job.max_lateness", P, "job.max_lateness", "PT50S");
        c("job.max_future", P, "job.max_future", "PT50S");
        c("job.checkpoint_interval", Kind.OPERATOR_SIDE, "job.checkpoint_interval", "PT5S");
        c("job.max_out_of_orderness", Kind.OPERATOR_SIDE, "job.max_out_of_orderness", "PT5S");
        m(
                "job.idle_timeout",
                Kind.OPERATOR_SIDE,
                new Object[] {"job.release_clock", "records"},
                "job.idle_timeout",
                "PT5S");
        // release instants only (docs/event-time.md#the-release-clock): what counts is per record
        c("job.release_clock", Kind.OPERATOR_SIDE, "job.release_clock", "records");
        c("job.tick_interval", Kind.OPERATOR_SIDE, "job.tick_interval", "PT5S");
        c("job.bounded_input", Kind.OPERATOR_SIDE, "job.bounded_input", true);
        c("job.parallelism", Kind.OPERATOR_SIDE, "job.parallelism", 4);
        c("job.decode_parallelism", Kind.OPERATOR_SIDE, "job.decode_parallelism", 2);
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static ObjectNode base() throws Exception {
        return (ObjectNode)
                YAML.readTree(
                        """
                        kafka: {bootstrap_servers: "b:9092"}
                        job: {start: "2026-12-01T00:00:00Z", end: "2026-12-05T00:00:00Z"}
                        streams:
                          - id: s
                            dimension: 2
                            lower: [0, 0]
                            upper: [1, 1]
                            k: 2
                            window: PT10S
                            epsilon_per_release: 1
                            budget_cap: 10
                            summaries: [stats, ckm, dp-hst]
                            stats: {cells: 16}
                            ckm: {m: 16, r: 8}
                            hst: {universe: 64}
                        """);
    }

    /** The saved line of the configuration: the stream's and the job's time rules. */
    private static String line(ObjectNode root) throws Exception {
        DpclustConfig c = ConfigLoader.parse(YAML.writeValueAsString(root));
        return PublicParameters.of(c.streams().get(0))
                + " | "
                + EventTimePolicy.of(c.job()).publicParameters();
    }

    private static ObjectNode changed(Case c) throws Exception {
        return with(with(base(), c.mode()), c.change());
    }

    private static ObjectNode with(ObjectNode root, Map<String, Object> paths) {
        ObjectNode stream = (ObjectNode) root.get("streams").get(0);
        for (Map.Entry<String, Object> e : paths.entrySet()) {
            String path = e.getKey();
            ObjectNode at = stream;
            if (path.startsWith("job.")) {
                at = (ObjectNode) root.get("job");
                path = path.substring(4);
            } else if (path.contains(".")) {
                at = stream.withObjectProperty(path.substring(0, path.indexOf('.')));
                path = path.substring(path.indexOf('.') + 1);
            }
            if (e.getValue() == null) {
                at.remove(path); // an option that excludes the one changed
            } else {
                at.set(path, YAML.valueToTree(e.getValue()));
            }
        }
        return root;
    }

    @Test
    void everyOptionIsClassified() {
        Set<String> options = new TreeSet<>(ConfigLoader.streamOptions());
        for (String o : ConfigLoader.JOB_OPTIONS) {
            options.add("job." + o);
        }
        assertEquals(
                options, CASES.keySet(), "classify every option in " + getClass().getSimpleName());
    }

    /**
     * Options that are not in the noise key's mechanism ids ({@link Mechanisms}), each with why no
     * released noise depends on it beyond what the key already holds (stream id, window start,
     * summary, the contents' digest). Every other option must move a mechanism id, so two
     * configurations that calibrate noise differently never share a noise key.
     */
    private static final Map<String, String> NOT_IN_NOISE_KEY =
            Map.ofEntries(
                    Map.entry("id", "in the noise key itself"),
                    Map.entry("window", "the window start is in the noise key"),
                    Map.entry("budget_cap", "ledger policy; the release's own budget is keyed"),
                    Map.entry("budget_period", "ledger policy"),
                    Map.entry("lifetime_cap", "ledger policy"),
                    Map.entry("running.windows", "sums released noisy cells: post-processing"),
                    Map.entry("salt_buckets", "sub-keys merged before noise: same digest for any"),
                    Map.entry("initial_centroids", "post-processing start"),
                    Map.entry("stats.update", "post-processing of the noisy cells"),
                    Map.entry("stats.publish_cells", "publishes the noisy cells as drawn"),
                    Map.entry("ckm.replicates", "decoding of the noisy sketch"),
                    Map.entry("ckm.warm_start", "decoding of the noisy sketch"),
                    Map.entry("ckm.decode_every", "decoding of the noisy sketch"));

    @Test
    void everyOptionThatCalibratesNoiseMovesTheNoiseKey() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Case> e : CASES.entrySet()) {
            String option = e.getKey();
            Case c = e.getValue();
            if (option.startsWith("job.") || c.change().isEmpty() || option.equals("summaries")) {
                continue; // job options reach no mechanism (the time rules are pinned above); the
                // summary is in the noise key itself
            }
            String base = mechanisms(with(base(), c.mode()));
            String other = mechanisms(changed(c));
            if (NOT_IN_NOISE_KEY.containsKey(option) != base.equals(other)) {
                wrong.add(
                        option
                                + (base.equals(other)
                                        ? " calibrates noise: it must move the noise key"
                                        : " moved the noise key, yet is declared: "
                                                + NOT_IN_NOISE_KEY.get(option)));
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** The mechanism ids of the configured summaries (part of every release's noise key). */
    private static String mechanisms(ObjectNode root) throws Exception {
        StreamSpec s = ConfigLoader.parse(YAML.writeValueAsString(root)).streams().get(0);
        return Mechanisms.stats(s)
                + " "
                + (s.summaries().contains(Summary.CKM) ? Mechanisms.ckm(s) : "-")
                + " "
                + (s.summaries().contains(Summary.DP_HST) ? Mechanisms.hst(s) : "-");
    }

    @Test
    void pinnedOptionsChangeTheSavedLineAndTheOthersDoNot() throws Exception {
        for (Map.Entry<String, Case> e : CASES.entrySet()) {
            Case c = e.getValue();
            if (c.kind() == Kind.IDENTITY) {
                continue;
            }
            String base = line(with(base(), c.mode()));
            String other = line(changed(c));
            if (c.kind() == Kind.PINNED) {
                assertNotEquals(base, other, e.getKey() + " is pinned: its change must be refused");
            } else {
                assertEquals(base, other, e.getKey() + " is " + c.kind() + ", yet the line moved");
            }
        }
    }
}
