package org.dpclust.config;

import java.util.HashMap;
import java.util.Map;

/**
 * One instance of each distinct settings value of a configuration: the members of a stream set (and
 * streams written alike) refer to the same {@link BudgetSettings}, {@link CkmSettings}, ... instead
 * of one equal copy each. Java serialization keeps shared references shared, so every operator that
 * deserializes the configuration holds one copy of the shared settings, not one per stream (10,000
 * streams × every operator instance of a job otherwise held ≈ 7 KB of equal settings per stream).
 * Values are immutable records compared by value; nothing changes but identity.
 */
final class SharedSettings {
    private final Map<Object, Object> seen = new HashMap<>();

    /** {@code spec} with its settings replaced by the first equal instance seen. */
    StreamSpec of(StreamSpec spec) {
        return new StreamSpec(
                spec.id(),
                spec.dimension(),
                spec.lower(),
                spec.upper(),
                spec.k(),
                canonical(spec.window()),
                spec.summaries(),
                canonical(spec.budget()),
                canonical(spec.unit()),
                canonical(spec.stats()),
                canonical(spec.ckm()),
                canonical(spec.hst()),
                spec.publicSeed(),
                spec.initialCentroids(),
                spec.saltBuckets(),
                canonical(spec.accounting()),
                canonical(spec.running()));
    }

    @SuppressWarnings("unchecked")
    private <T> T canonical(T value) {
        if (value == null) {
            return null;
        }
        Object first = seen.putIfAbsent(value, value);
        return first == null ? value : (T) first;
    }
}
