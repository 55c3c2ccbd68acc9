package org.dpclust.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.java.functions.KeySelector;
import org.dpclust.config.StreamSpec;

/**
 * The key of phase 1 ({@link WindowPreAggregator}): (stream, salt), with salt = a public hash of
 * the record's device id and event time modulo the stream's {@code salt_buckets} S. With S = 1 (the
 * default) the key is the stream id itself. The salt only routes records — the summaries are merged
 * per (stream, window) before any noise — so it is not secret and need not be. Keys are precomputed
 * strings: no allocation per record. Salting applies to record-unit streams only (the configuration
 * refuses it for device units).
 */
public final class SubStreamKey implements KeySelector<ValidRecord, String> {
    private final Map<String, String[]> keys = new HashMap<>();

    public SubStreamKey(List<StreamSpec> streams) {
        for (StreamSpec s : streams) {
            String[] k = new String[s.saltBuckets()];
            for (int i = 0; i < k.length; i++) {
                k[i] = k.length == 1 ? s.id() : s.id() + "|" + i;
            }
            keys.put(s.id(), k);
        }
    }

    @Override
    public String getKey(ValidRecord r) {
        String[] k = keys.get(r.streamId);
        return k.length == 1 ? k[0] : k[salt(r.deviceId, r.eventTime, k.length)];
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
