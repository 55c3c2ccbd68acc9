package org.dpclust.stream;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.java.functions.KeySelector;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.StreamSpec;
import org.dpclust.window.ValidRecord;

/**
 * The key of phase 1 ({@link WindowPreAggregator}): (stream, salt), with salt = a public hash of
 * the record's device id and event time (record units) or of its device id alone (device units: all
 * of a device's records meet in one key, which its contribution bounding needs) modulo the stream's
 * {@code salt_buckets} S. With S = 1 (the default) the key is the stream id itself. The salt only
 * routes records — the summaries are merged per (stream, window) before any noise — so it is not
 * secret and need not be. Keys are precomputed strings: no allocation per record.
 */
public final class SubStreamKey implements KeySelector<ValidRecord, String> {
    private final Map<String, String[]> keys = new HashMap<>();
    private final Set<String> byDevice = new HashSet<>();

    public SubStreamKey(List<StreamSpec> streams) {
        for (StreamSpec s : streams) {
            String[] k = new String[s.saltBuckets()];
            for (int i = 0; i < k.length; i++) {
                k[i] = k.length == 1 ? s.id() : s.id() + "|" + i;
            }
            keys.put(s.id(), k);
            if (s.privacyUnit() == PrivacyUnit.DEVICE) {
                byDevice.add(s.id());
            }
        }
    }

    @Override
    public String getKey(ValidRecord r) {
        String[] k = keys.get(r.streamId);
        if (k.length == 1) {
            return k[0];
        }
        long t = byDevice.contains(r.streamId) ? 0 : r.eventTime;
        return k[salt(r.deviceId, t, k.length)];
    }

    /** The public salt of a record in [0, buckets). */
    static int salt(String deviceId, long eventTime, int buckets) {
        long h = deviceId.hashCode() * 0x9E3779B97F4A7C15L ^ eventTime;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) buckets);
    }
}
