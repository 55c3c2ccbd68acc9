package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.dpclust.config.StreamSpec;
import org.dpclust.window.EventTimePolicy;
import org.dpclust.window.PublicParameters;

/**
 * The keyed release function's savepoint guard: keeps each configured stream's {@link
 * PublicParameters} and the job's time rules ({@link EventTimePolicy#publicParameters}) in union
 * operator state ({@code public-parameters}: every subtask sees all entries whatever the
 * parallelism) and, on restore, refuses a stream configured with other ones than its state was
 * built under (a configuration changed across a savepoint or checkpoint): its open windows were
 * promised under the saved ones. Fails the job at restore without restarts (a restart would meet
 * the same state), with one line naming both. A stream without a saved entry (new, or a savepoint
 * of an earlier version) is accepted.
 */
final class SavedPublicParameters {
    private final ListState<String> saved;

    /** What this subtask saves at every snapshot: the entries, or none (see {@link #restore}). */
    private final List<String> entries;

    private SavedPublicParameters(ListState<String> saved, List<String> entries) {
        this.saved = saved;
        this.entries = entries;
    }

    /**
     * The operator state, checked against {@code streams} and {@code policy} when restored.
     *
     * @param writer whether this subtask saves the entries: one subtask (index 0) is enough, since
     *     every subtask runs the same configuration and union state hands all entries to every
     *     subtask on restore; the others save none, so the state is one copy of the fleet's
     *     parameters, not one per subtask
     */
    static SavedPublicParameters restore(
            FunctionInitializationContext ctx,
            List<StreamSpec> streams,
            EventTimePolicy policy,
            boolean writer)
            throws Exception {
        ListState<String> state =
                ctx.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("public-parameters", Types.STRING));
        String refusal =
                ctx.isRestored() ? PublicParameters.refusal(state.get(), streams, policy) : null;
        if (refusal != null) {
            throw new SuppressRestartsException(new IllegalStateException(refusal));
        }
        List<String> entries = new ArrayList<>();
        if (writer) {
            entries.add(PublicParameters.entry(policy));
            for (StreamSpec s : streams) {
                entries.add(PublicParameters.entry(s));
            }
        }
        return new SavedPublicParameters(state, List.copyOf(entries));
    }

    /**
     * Saves the configured streams' parameters and the time rules (at every snapshot; computed
     * once, since the configuration does not change while the job runs).
     */
    void save() throws Exception {
        saved.update(entries);
    }
}
