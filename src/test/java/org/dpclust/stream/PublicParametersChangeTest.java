package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.dpclust.config.StreamSpec;
import org.dpclust.geometry.PivotListIndex;
import org.dpclust.io.Publication;
import org.dpclust.kafka.PublicationTypeInfo;
import org.dpclust.privacy.testing.TestRandoms;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.PublicParameters;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowPartial;
import org.junit.jupiter.api.Test;

/**
 * A stream whose public parameters changed across a snapshot (a savepoint restored under another
 * configuration) is refused when its state is first used — here, the open window's release timer —
 * with one message naming the saved and the configured parameters, and without restarts; the same
 * configuration restores and releases as before.
 */
class PublicParametersChangeTest {
    private static final long W = 10_000;

    private static KeyedOneInputStreamOperatorTestHarness<String, WindowPartial, Publication>
            restored(StreamSpec s, RecordingLedger ledger, OperatorSubtaskState snapshot)
                    throws Exception {
        return StreamTestRecords.restored(
                StreamTestRecords.function(s, 1, ledger),
                (WindowPartial p) -> p.streamId,
                snapshot);
    }

    /** The operator for the test stream under {@code policy}'s time rules. */
    private static StreamClusteringFunction function(
            StreamSpec s, EventTimePolicy policy, RecordingLedger ledger) {
        return new StreamClusteringFunction(
                List.of(s), TestRandoms.secretSource(), Map.of(), policy, ledger.factory());
    }

    /**
     * The job's time rules are pinned too: a device-unit stream restored under a larger {@code
     * max_lateness} would close a device's reservoir at the old close time while its window is
     * still open and count more than c of its records; another {@code start}, {@code end} or {@code
     * max_future} would change the schedule or which records count. Each is refused in one line;
     * the same rules restore and release.
     */
    @Test
    void aChangedTimeRuleIsRefusedOnRestore() throws Exception {
        StreamSpec s =
                StreamTestRecords.spec(
                        "    privacy_unit: device\n    device_contribution_bound: 2\n");
        EventTimePolicy saved = new EventTimePolicy(0, 3 * W, 0, W);
        for (EventTimePolicy changed :
                List.of(
                        new EventTimePolicy(0, 3 * W, 50_000, W), // max_lateness 0 -> 50 s
                        new EventTimePolicy(W, 3 * W, 0, W), // a later start
                        new EventTimePolicy(0, 2 * W, 0, W), // an earlier end
                        new EventTimePolicy(0, 3 * W, 0, 2 * W))) { // max_future
            RecordingLedger ledger = new RecordingLedger();
            var h = StreamTestRecords.harness(function(s, saved, ledger), p -> p.streamId);
            for (int i = 0; i < 8; i++) {
                ValidRecord r = StreamTestRecords.record("d0", i * 100L, 0.25, 0.75);
                h.processElement(WindowPartial.of(r), r.eventTime);
            }
            OperatorSubtaskState snapshot = h.snapshot(1, 1); // window 0 open
            h.close();
            Exception e =
                    assertThrows(
                            Exception.class,
                            () ->
                                    StreamTestRecords.restored(
                                            function(s, changed, ledger),
                                            (WindowPartial p) -> p.streamId,
                                            snapshot));
            String message = e.toString();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SuppressRestartsException x) {
                    message = x.getCause().getMessage();
                }
            }
            assertTrue(
                    message.startsWith("the job's time rules: its public parameters changed"),
                    message);
            assertTrue(message.contains(saved.publicParameters()), message);
            assertTrue(message.contains(changed.publicParameters()), message);
            assertEquals(0, ledger.charges().size(), "nothing charged");
            var same =
                    StreamTestRecords.restored(
                            function(s, saved, ledger), (WindowPartial p) -> p.streamId, snapshot);
            same.processWatermark(W - 1);
            assertEquals(1, ledger.charges().size(), "the same rules release window 0");
            same.close();
        }
    }

    /**
     * One subtask saves the fleet's parameters (every subtask runs the same configuration), the
     * others none; union state hands that one copy to every subtask on restore, at any parallelism:
     * a state of two subtasks restored into one still refuses a changed stream.
     */
    @Test
    void oneSubtaskSavesTheParametersAndEverySubtaskChecksThem() throws Exception {
        StreamSpec s = StreamTestRecords.spec("");
        StreamSpec changed = StreamTestRecords.spec("", "{cells: 32}");
        OperatorSubtaskState[] states = new OperatorSubtaskState[2];
        for (int i = 0; i < 2; i++) {
            var h =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new KeyedProcessOperator<>(
                                    StreamTestRecords.function(s, 1, new RecordingLedger())),
                            (WindowPartial p) -> p.streamId,
                            Types.STRING,
                            4,
                            2,
                            i);
            h.setup(PublicationTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
            h.open();
            states[i] = h.snapshot(1, 1);
            h.close();
        }
        OperatorSubtaskState both = AbstractStreamOperatorTestHarness.repackageState(states);
        Exception e =
                assertThrows(Exception.class, () -> restored(changed, new RecordingLedger(), both));
        assertTrue(
                e.toString().contains("its public parameters changed")
                        || causes(e).contains("its public parameters changed"),
                e.toString());
        restored(s, new RecordingLedger(), both).close(); // the same configuration restores
        // subtask 1 saved nothing: its state alone vouches for no stream
        restored(changed, new RecordingLedger(), states[1]).close();
    }

    private static String causes(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getMessage()).append('\n');
        }
        return b.toString();
    }

    /** A savepoint that did not save the time rules (an earlier version) cannot vouch for them. */
    @Test
    void aSavepointWithoutTheTimeRulesIsRefused() {
        StreamSpec s = StreamTestRecords.spec("");
        EventTimePolicy p = new EventTimePolicy(0, 3 * W, 0, W);
        String message =
                PublicParameters.refusal(List.of(PublicParameters.entry(s)), List.of(s), p);
        assertTrue(
                message != null && message.contains("saved: not saved"), String.valueOf(message));
        assertEquals(
                null,
                PublicParameters.refusal(
                        List.of(PublicParameters.entry(p), PublicParameters.entry(s)),
                        List.of(s),
                        p));
    }

    @Test
    void aChangedEpsilonIsRefusedOnRestoreAndTheSameConfigurationIsNot() throws Exception {
        StreamSpec saved = StreamTestRecords.spec("");
        StreamSpec changed = StreamTestRecords.spec("", "{cells: 16}", 0.5, 2.5);
        String message = refusal(saved, changed);
        assertTrue(message.contains("saved: window=PT10S"), message);
        assertTrue(message.contains("epsilon_per_release=1.0"), message);
        assertTrue(message.contains("configured: window=PT10S"), message);
        assertTrue(message.contains("epsilon_per_release=0.5"), message);
    }

    /**
     * Device units keep each device's selection in the state of its sub-key: another salt_buckets
     * on restore would let a device's later records into a window next to its earlier ones (up to
     * 2c), so it is refused; record units may change it freely.
     */
    @Test
    void aChangedSaltingIsRefusedForDeviceUnitsOnly() throws Exception {
        String device = "    privacy_unit: device\n    device_contribution_bound: 2\n";
        String message =
                refusal(
                        StreamTestRecords.spec(device + "    salt_buckets: 3\n"),
                        StreamTestRecords.spec(device + "    salt_buckets: 4\n"));
        assertTrue(message.contains("salt_buckets=3, bounded_in=pre-aggregate"), message);
        assertTrue(message.contains("salt_buckets=4, bounded_in=pre-aggregate"), message);
        // record units: salting changes no released byte, and the restore is accepted
        String record = PublicParameters.of(StreamTestRecords.spec(""));
        assertEquals(record, PublicParameters.of(StreamTestRecords.spec("    salt_buckets: 4\n")));
    }

    /**
     * An open tree node sums leaves charged ρ_tree when they were added: another ρ_tree (here
     * through the budget cap's even split) on restore is refused.
     */
    @Test
    void aChangedTreeRhoIsRefused() throws Exception {
        String tree =
                "    privacy_unit: record\n"
                        + "    accounting: zcdp\n"
                        + "    budget_delta: 1.0e-9\n"
                        + "    running: {mode: tree}\n";
        StreamSpec saved = StreamTestRecords.spec(tree, "{cells: 16}", 1.0, 2.5);
        StreamSpec changed = StreamTestRecords.spec(tree, "{cells: 16}", 1.0, 5.0);
        String message = refusal(saved, changed);
        assertTrue(message.contains("running=tree, rho_tree=" + saved.rhoPerRelease()), message);
        assertTrue(message.contains("running=tree, rho_tree=" + changed.rhoPerRelease()), message);
    }

    /**
     * A running sum labels its span as the windows' count times the latest ρ ({@code
     * span_charged_rho}): another ρ per release on restore would mislabel it, so it is refused (as
     * another ε per release is).
     */
    @Test
    void aChangedRhoPerReleaseIsRefused() throws Exception {
        String sum = "    accounting: zcdp\n    budget_delta: 1.0e-9\n    running: {windows: 3}\n";
        StreamSpec saved = StreamTestRecords.spec(sum + "    rho_per_release: 0.1\n");
        StreamSpec changed = StreamTestRecords.spec(sum + "    rho_per_release: 0.2\n");
        String message = refusal(saved, changed);
        assertTrue(message.contains("accounting=zcdp, rho_per_release=0.1"), message);
        assertTrue(message.contains("accounting=zcdp, rho_per_release=0.2"), message);
    }

    /**
     * A window's sketch calibrates its noise to the configured r: records added under a larger r
     * before a restore would weigh more than it covers, so another r is refused.
     */
    @Test
    void aChangedSketchRIsRefused() throws Exception {
        String message =
                refusal(
                        StreamTestRecords.spec("    summaries: [ckm]\n    ckm: {m: 64, r: 16}\n"),
                        StreamTestRecords.spec("    summaries: [ckm]\n    ckm: {m: 64, r: 8}\n"));
        assertTrue(message.contains("ckm.r=16"), message);
        assertTrue(message.contains("ckm.r=8"), message);
    }

    /**
     * Device bounding subtracts an evicted record where the current snap rule puts it: another rule
     * on restore would remove it from another point, so it is refused.
     */
    @Test
    void aChangedSnapRuleIsRefused() throws Exception {
        String device =
                "    privacy_unit: device\n    device_contribution_bound: 2\n    summaries: [dp-hst]\n";
        String message =
                refusal(
                        StreamTestRecords.spec(device + "    hst: {universe: 64}\n"),
                        StreamTestRecords.spec(
                                device + "    hst: {universe: 64, snap: nearest}\n"));
        assertTrue(message.contains("hst.snap=" + PivotListIndex.RULE), message);
        assertTrue(message.contains("hst.snap=nearest"), message);
    }

    /**
     * Device bounding subtracts an evicted record with the current frequencies: another σ (or law)
     * would remove a different vector than the one added, so it is refused.
     */
    @Test
    void aChangedFrequencySigmaIsRefusedForDeviceUnits() throws Exception {
        String device =
                "    privacy_unit: device\n    device_contribution_bound: 2\n    summaries: [ckm]\n";
        String message =
                refusal(
                        StreamTestRecords.spec(device + "    ckm: {m: 64, r: 16, sigma: 1.0}\n"),
                        StreamTestRecords.spec(device + "    ckm: {m: 64, r: 16, sigma: 3.0}\n"));
        assertTrue(message.contains("ckm.sigma=1.0"), message);
        assertTrue(message.contains("ckm.sigma=3.0"), message);
    }

    /** The mask shape is in the saved line as it was when it was an option. */
    @Test
    void theMaskShapeIsSavedAsBlock() {
        StreamSpec s = StreamTestRecords.spec("    summaries: [ckm]\n    ckm: {m: 64, r: 16}\n");
        String line = PublicParameters.of(s);
        assertTrue(line.contains("ckm.mask=block"), line);
        assertFalse(PublicParameters.admits(line.replace(", ckm.mask=block", ""), s));
    }

    /** The pivot rule is saved with its own parameters: a change of them is a different rule. */
    @Test
    void thePivotRuleIsSavedWithItsOwnParameters() {
        StreamSpec s =
                StreamTestRecords.spec(
                        "    summaries: [dp-hst]\n    hst: {universe: 64, snap: pivot}\n");
        String line = PublicParameters.of(s);
        assertTrue(line.contains("hst.snap=" + PivotListIndex.RULE), line);
        assertTrue(PublicParameters.admits(line, s));
        assertFalse(PublicParameters.admits(line.replace(PivotListIndex.RULE, "pivot"), s));
    }

    /**
     * A line saved before the placement suffix existed admits the same parameters only where the
     * unknown placement cannot matter (record units without ckm); a line with the suffix admits
     * only its own.
     */
    @Test
    void aLineWithoutPlacementFromAnEarlierVersionIsAdmittedOnlyWhereItCannotMatter() {
        String hst = "    summaries: [dp-hst]\n    hst: {universe: 64, snap: pivot}\n";
        StreamSpec recordHst = StreamTestRecords.spec(hst);
        String recordHstLine = PublicParameters.of(recordHst);
        assertTrue(recordHstLine.contains("hst.snap=" + PivotListIndex.RULE), recordHstLine);
        assertTrue(PublicParameters.admits(legacy(recordHstLine), recordHst));
        assertTrue(PublicParameters.admits(recordHstLine, recordHst));
        assertFalse(
                PublicParameters.admits(
                        recordHstLine.replace(PivotListIndex.RULE, "nearest"), recordHst));
        assertFalse(PublicParameters.admits(legacy(recordHstLine) + "x", recordHst));
        // a ckm stream's r, or a device-unit dp-hst stream's snap rule, is unknown: refused
        StreamSpec recordCkm =
                StreamTestRecords.spec("    summaries: [ckm]\n    ckm: {m: 64, r: 16}\n");
        assertFalse(PublicParameters.admits(legacy(PublicParameters.of(recordCkm)), recordCkm));
        StreamSpec deviceHst =
                StreamTestRecords.spec(
                        "    privacy_unit: device\n    device_contribution_bound: 2\n" + hst);
        assertFalse(PublicParameters.admits(legacy(PublicParameters.of(deviceHst)), deviceHst));
    }

    /** The line an earlier version saved: without the placement suffix. */
    private static String legacy(String line) {
        int at = line.indexOf(", placement=[");
        assertTrue(at > 0, line);
        return line.substring(0, at);
    }

    /** Saves under {@code saved}, restores under {@code changed}: the refusal's message. */
    private static String refusal(StreamSpec saved, StreamSpec changed) throws Exception {
        RecordingLedger ledger = new RecordingLedger();
        var h =
                StreamTestRecords.harness(
                        StreamTestRecords.function(saved, 1, ledger), p -> p.streamId);
        for (int i = 0; i < 50; i++) {
            ValidRecord r = StreamTestRecords.record("d" + i, i * 100L, 0.25, 0.75);
            h.processElement(WindowPartial.of(r), r.eventTime);
        }
        OperatorSubtaskState snapshot = h.snapshot(1, 1); // window 0 open
        h.close();

        Exception e = assertThrows(Exception.class, () -> restored(changed, ledger, snapshot));
        SuppressRestartsException suppress = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SuppressRestartsException s) {
                suppress = s;
            }
        }
        assertTrue(suppress != null, "fails without restarts: " + e);
        String message = suppress.getCause().getMessage();
        System.out.println("PublicParametersChangeTest: refusal: " + message);
        assertTrue(message.startsWith("stream 's': its public parameters changed"), message);
        assertTrue(!message.contains("\n"), "one line");
        assertEquals(0, ledger.charges().size(), "nothing charged under the changed parameters");

        var same = restored(saved, ledger, snapshot);
        same.processWatermark(W - 1);
        assertEquals(
                saved.running().tree() ? 2 : 1, // the stats charge, and the tree's
                ledger.charges().size(),
                "the same configuration releases window 0");
        same.close();
        return message;
    }
}
