package org.dpclust.stream;

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

    private SavedPublicParameters(ListState<String> saved) {
        this.saved = saved;
    }

    /** The operator state, checked against {@code streams} and {@code policy} when restored. */
    static SavedPublicParameters restore(
            FunctionInitializationContext ctx, List<StreamSpec> streams, EventTimePolicy policy)
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
        return new SavedPublicParameters(state);
    }

    /** Saves the configured streams' parameters and the time rules (at every snapshot). */
    void save(List<StreamSpec> streams, EventTimePolicy policy) throws Exception {
        saved.clear();
        saved.add(PublicParameters.entry(policy));
        for (StreamSpec s : streams) {
            saved.add(PublicParameters.entry(s));
        }
    }
}
