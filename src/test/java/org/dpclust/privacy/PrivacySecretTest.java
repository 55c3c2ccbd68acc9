package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PrivacySecretTest {
    @Test
    void hmacMatchesRfc4231TestCase1() {
        byte[] key = new byte[20];
        Arrays.fill(key, (byte) 0x0b);
        byte[] mac =
                PrivacySecret.of(key).hmacSha256("Hi There".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(
                HexFormat.of()
                        .parseHex(
                                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
                mac);
    }

    @Test
    void copiesKeyAndHidesItInToString() {
        byte[] key = HexFormat.of().parseHex("a1b2c3d4e5f60718293a4b5c6d7e8f90");
        PrivacySecret s = PrivacySecret.of(key);
        byte[] before = s.hmacSha256(new byte[] {1});
        key[0] ^= 1;
        assertArrayEquals(before, s.hmacSha256(new byte[] {1}));
        String str = s.toString();
        assertFalse(str.toLowerCase().contains("a1b2"), str);
        assertFalse(str.contains("-95"), str); // no decimal byte dump either
        assertTrue(str.contains("16 bytes"), str);
    }

    @Test
    void fromHexMatchesOfAndRejectsBadInput() {
        String hex = "000102030405060708090A0B0C0D0E0F";
        assertArrayEquals(
                PrivacySecret.of(HexFormat.of().parseHex(hex)).hmacSha256(new byte[0]),
                PrivacySecret.fromHex(hex).hmacSha256(new byte[0]));
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> PrivacySecret.fromHex("abc"))
                        .getMessage()
                        .contains("odd length"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> PrivacySecret.fromHex("000102030405060708090a0b0c0d0e0g"))
                        .getMessage()
                        .contains("position 31"));
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> PrivacySecret.fromHex("0001"))
                        .getMessage()
                        .contains("at least 16"));
        assertThrows(IllegalArgumentException.class, () -> PrivacySecret.fromHex(null));
        assertThrows(IllegalArgumentException.class, () -> PrivacySecret.of(new byte[15]));
    }

    @Test
    void cannotBeJavaSerializedSoItNeverTravelsInAJobGraph() throws Exception {
        PrivacySecret s = PrivacySecret.fromHex("00112233445566778899aabbccddeeff00");
        for (Object o : new Object[] {s, new RecordHasher(s)}) {
            try (var oos = new ObjectOutputStream(new ByteArrayOutputStream())) {
                assertThrows(NotSerializableException.class, () -> oos.writeObject(o));
            }
        }
    }
}
