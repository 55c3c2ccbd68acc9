package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class RecordHasherTest {
    @Test
    void isFirstEightBytesOfHmac() {
        byte[] id = "device-7/record-42".getBytes(StandardCharsets.UTF_8);
        long expected = ByteBuffer.wrap(TestRandoms.SECRET.hmacSha256(id)).getLong();
        RecordHasher h = new RecordHasher(TestRandoms.SECRET);
        assertEquals(expected, h.hash(id));
        assertEquals(expected, h.hash(id.clone()));
        assertNotEquals(h.hash(id), h.hash("device-7/record-43".getBytes(StandardCharsets.UTF_8)));
        RecordHasher other = new RecordHasher(PrivacySecret.of(new byte[16]));
        assertNotEquals(h.hash(id), other.hash(id));
    }
}
