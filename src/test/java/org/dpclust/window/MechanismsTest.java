package org.dpclust.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.StreamSpec;
import org.junit.jupiter.api.Test;

/**
 * Every public parameter that shapes a mechanism changes its id, and so its noise key; a parameter
 * that only post-processes the noisy values does not.
 */
class MechanismsTest {
    /** The parameters of the spec template and their base values. */
    private static Map<String, String> base() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("lower", "[0, 0]");
        p.put("upper", "[1, 1]");
        p.put("k", "2");
        p.put("epsilon", "1.0");
        p.put("seed", "5");
        p.put("unit", "privacy_unit: record");
        p.put("cells", "16");
        p.put("stats_fraction", "0.3");
        p.put("update", "mean");
        p.put("m", "40");
        p.put("r", "20");
        p.put("law", "gaussian");
        p.put("sigma", "0.5");
        p.put("ckm_fraction", "0.2");
        p.put("universe", "64");
        p.put("levels", "8");
        p.put("snap", "nearest");
        return p;
    }

    private static StreamSpec spec(Map<String, String> p) {
        String yaml =
                """
                streams:
                  - id: s
                    dimension: 2
                    lower: %s
                    upper: %s
                    k: %s
                    window: PT10S
                    epsilon_per_release: %s
                    budget_cap: 100
                    public_seed: %s
                    %s
                    summaries: [stats, ckm, dp-hst]
                    stats: {cells: %s, count_fraction: %s, update: %s}
                    ckm: {m: %s, r: %s, law: %s, sigma: %s, count_fraction: %s}
                    hst: {universe: %s, max_levels: %s, snap: %s}
                """
                        .formatted(p.values().toArray());
        return ConfigLoader.parse(yaml).streams().get(0);
    }

    private static StreamSpec with(String key, String value) {
        Map<String, String> p = base();
        p.put(key, value);
        return spec(p);
    }

    /** Asserts the id changes with each of {@code changes} (key, value) and not with the others. */
    private static void check(Function<StreamSpec, String> id, Map<String, String> changes) {
        String reference = id.apply(spec(base()));
        assertEquals(reference, id.apply(spec(base())), "deterministic");
        Map<String, String> alternatives = new LinkedHashMap<>();
        alternatives.put("lower", "[-1, 0]");
        alternatives.put("upper", "[1, 2]");
        alternatives.put("k", "3");
        alternatives.put("epsilon", "1.0000000000000002");
        alternatives.put("seed", "6");
        alternatives.put("unit", "privacy_unit: device\n    device_contribution_bound: 2");
        alternatives.put("cells", "17");
        alternatives.put("stats_fraction", "0.31");
        alternatives.put("update", "expdp-zone");
        alternatives.put("m", "41");
        alternatives.put("r", "19");
        alternatives.put("law", "adapted-radius");
        alternatives.put("sigma", "0.51");
        alternatives.put("ckm_fraction", "0.21");
        alternatives.put("universe", "65");
        alternatives.put("levels", "9");
        alternatives.put("snap", "pivot");
        for (var e : alternatives.entrySet()) {
            String changed = id.apply(with(e.getKey(), e.getValue()));
            if (changes.containsKey(e.getKey())) {
                assertNotEquals(reference, changed, "must change with " + e.getKey());
            } else {
                assertEquals(reference, changed, "must not change with " + e.getKey());
            }
        }
    }

    private static Map<String, String> keys(String... names) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : names) {
            m.put(n, "");
        }
        return m;
    }

    private static final String[] COMMON = {"lower", "upper", "epsilon", "seed", "unit"};

    private static String[] plus(String... more) {
        String[] all = new String[COMMON.length + more.length];
        System.arraycopy(COMMON, 0, all, 0, COMMON.length);
        System.arraycopy(more, 0, all, COMMON.length, more.length);
        return all;
    }

    @Test
    void statsNoiseIsKeyedByTheCommonParametersTheCellsAndTheSplitNotByThePostProcessing() {
        check(Mechanisms::stats, keys(plus("cells", "stats_fraction")));
    }

    @Test
    void ckmNoiseIsKeyedByTheCommonParametersAndTheSketchSettings() {
        check(Mechanisms::ckm, keys(plus("m", "r", "law", "sigma", "ckm_fraction")));
    }

    /**
     * A stream's masks are block masks, and its ckm id is the one {@code ckm.mask: block} had while
     * the shape was an option (pinned, taken before uniform masks were removed).
     */
    @Test
    void theCkmIdIsTheBlockMaskIdOfTheVersionWithTheOption() {
        assertEquals(
                "masked-sketch-geometric-v2/public="
                        + "95603ff7ab93de829983763bfb36a4ed2f06fb61872203772f811646d4c57f78",
                Mechanisms.ckm(spec(base())));
    }

    @Test
    void hstNoiseIsKeyedByTheCommonParametersTheUniverseTheLevelsKAndTheSnapRule() {
        check(Mechanisms::hst, keys(plus("universe", "levels", "k", "snap")));
    }

    /**
     * Each snap rule keys its own id, and the ids of the kept rules are those they had before
     * {@code descent} and {@code walk} were removed and {@code pivot} became the default (pinned):
     * the rule ids did not change, only which one a stream gets when it does not set {@code
     * hst.snap}.
     */
    @Test
    void eachHstSnapRuleKeysItsOwnPinnedId() {
        assertEquals(
                "hst-geometric-v2/public="
                        + "c2e471c98a6d2f928f21c24ffc0543ef7b17fb80ddc864ec049c890b5bc19dc9",
                Mechanisms.hst(with("snap", "nearest")));
        assertEquals(
                "hst-geometric-v2/public="
                        + "dcda2ae77181f4228fd9bd786533ba36ee4f01a8e6260b2622f9f279ced97bc0",
                Mechanisms.hst(with("snap", "pivot")));
    }

    @Test
    void theThreeMechanismsHaveDistinctIdsOfTheSameForm() {
        StreamSpec s = spec(base());
        for (String id : new String[] {Mechanisms.stats(s), Mechanisms.ckm(s), Mechanisms.hst(s)}) {
            assertEquals(true, id.matches("[a-z-]+-v2/public=[0-9a-f]{64}"), id);
        }
        assertNotEquals(Mechanisms.stats(s), Mechanisms.ckm(s));
        assertNotEquals(Mechanisms.ckm(s), Mechanisms.hst(s));
    }
}
