package org.dpclust.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.config.StreamSpec;
import org.dpclust.window.ValidRecord;
import org.junit.jupiter.api.Test;

/** Phase 1's key: the stream id, or (stream, public salt) for S > 1 salt buckets. */
class SubStreamKeyTest {
    private static final StreamSpec ONE = StreamTestRecords.spec("");
    private static final StreamSpec FOUR = StreamTestRecords.spec("    salt_buckets: 4\n");

    @Test
    void withOneBucketTheKeyIsTheStreamId() throws Exception {
        SubStreamKey key = new SubStreamKey(List.of(ONE));
        for (int i = 0; i < 50; i++) {
            assertEquals("s", key.getKey(StreamTestRecords.record("dev-" + i, i * 37L, 0.5, 0.5)));
        }
    }

    @Test
    void withFourBucketsEveryRecordHasOneOfFourKeysAndTheyAreAllUsed() throws Exception {
        SubStreamKey key = new SubStreamKey(List.of(FOUR));
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            ValidRecord r = StreamTestRecords.record("dev-" + (i % 40), i * 37L, 0.5, 0.5);
            String k = key.getKey(r);
            assertTrue(k.matches("s\\|[0-3]"), k);
            assertEquals(k, key.getKey(r), "a function of the record: the same key again");
            counts.merge(k, 1, Integer::sum);
        }
        assertEquals(4, counts.size(), "records spread over all buckets: " + counts);
        counts.values().forEach(n -> assertTrue(n > 50, "roughly even: " + counts));
    }

    @Test
    void theSaltDependsOnlyOnTheDeviceAndTheEventTime() throws Exception {
        SubStreamKey key = new SubStreamKey(List.of(FOUR));
        ValidRecord a = StreamTestRecords.record("dev-1", 1234, 0.1, 0.9);
        ValidRecord b = StreamTestRecords.record("dev-1", 1234, 0.7, 0.2);
        assertEquals(key.getKey(a), key.getKey(b), "features do not route");
        assertEquals(
                SubStreamKey.salt("dev-1", 1234, 4), Integer.parseInt(key.getKey(a).substring(2)));
    }

    @Test
    void aDeviceUnitStreamKeysEveryRecordOfADeviceAlike() throws Exception {
        SubStreamKey key =
                new SubStreamKey(
                        List.of(
                                StreamTestRecords.spec(
                                        "    privacy_unit: device\n    salt_buckets: 4\n")));
        Map<String, String> byDevice = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            String device = "dev-" + (i % 40);
            String k = key.getKey(StreamTestRecords.record(device, i * 37L, 0.5, 0.5));
            assertEquals(
                    byDevice.computeIfAbsent(device, d -> k), k, "one key per device, any time");
        }
        assertEquals(4, new java.util.HashSet<>(byDevice.values()).size(), "devices spread");
    }
}
