package org.dpclust.stream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.config.Summary;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.window.StreamRuntime;
import org.dpclust.window.ValidRecord;
import org.dpclust.window.WindowSummaries;

/**
 * The serialized size of one open window's keyed state in {@link StreamClusteringFunction} for one
 * record-unit stream, per summary: the map-state entry (window start → long array) that the
 * operator keeps, written with the operator's own Flink serializers. Statistics are always kept
 * (the {@code stats} entry); {@code ckm} and {@code dp-hst} entries exist when those summaries are
 * on. Excludes what every keyed state backend adds around an entry (key group, stream key, state
 * name), which does not depend on the records.
 */
public final class WindowStateBytes {
    private WindowStateBytes() {}

    /** Bytes per summary after accumulating {@code records} (all of the stream, in one window). */
    public static Map<Summary, Long> of(
            StreamSpec s, PrivacySecret secret, Iterable<ValidRecord> records) {
        if (s.privacyUnit() != PrivacyUnit.RECORD) {
            throw new IllegalArgumentException(
                    "record-unit streams only (device units also keep <= c records per device)");
        }
        StreamRuntime rt = StreamRuntime.of(s);
        WindowSummaries w = null;
        for (ValidRecord r : records) {
            if (w == null) {
                w = WindowSummaries.empty(rt, secret, s.windowStart(r.eventTime));
            }
            r.addTo(w);
        }
        if (w == null) {
            w = WindowSummaries.empty(rt, secret, 0);
        }
        Map<Summary, Long> bytes = new EnumMap<>(Summary.class);
        bytes.put(Summary.STATS, entryBytes(w.windowStart, w.stats.state()));
        if (w.sketch != null) {
            bytes.put(Summary.CKM, entryBytes(w.windowStart, w.sketchState()));
        }
        if (w.hst != null) {
            bytes.put(Summary.DP_HST, entryBytes(w.windowStart, w.hst));
        }
        return bytes;
    }

    private static long entryBytes(long windowStart, long[] value) {
        SerializerConfigImpl config = new SerializerConfigImpl();
        TypeSerializer<Long> key = KeyedWindowState.WINDOW_KEY.createSerializer(config);
        TypeSerializer<long[]> values = KeyedWindowState.WINDOW_VALUE.createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(8 * value.length + 16);
        try {
            key.serialize(windowStart, out);
            values.serialize(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.length();
    }
}
