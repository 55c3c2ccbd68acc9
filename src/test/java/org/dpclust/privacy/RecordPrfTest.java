package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class RecordPrfTest {
    private static final byte[] DOMAIN = "test/record-prf/v1".getBytes(StandardCharsets.UTF_8);

    /**
     * Reference: the CBC-MAC by a fresh zero-IV AES/CBC cipher, then AES-CTR by a fresh ECB cipher.
     */
    private static int[] reference(PrivacySecret secret, byte[] id, int words) throws Exception {
        byte[] kMac = secret.hmacSha256(RecordPrf.label(RecordPrf.MAC_LABEL, DOMAIN));
        byte[] kCtr = secret.hmacSha256(RecordPrf.label(RecordPrf.CTR_LABEL, DOMAIN));
        byte[] msg = new byte[16 * ((8 + id.length + 15) / 16)];
        ByteBuffer.wrap(msg).putLong(id.length).put(id);
        Cipher cbc = Cipher.getInstance("AES/CBC/NoPadding");
        cbc.init(
                Cipher.ENCRYPT_MODE,
                new SecretKeySpec(kMac, "AES"),
                new IvParameterSpec(new byte[16]));
        byte[] ct = cbc.doFinal(msg);
        byte[] tag = Arrays.copyOfRange(ct, ct.length - 16, ct.length);
        byte[] blocks = new byte[16 * ((words + 3) / 4)];
        for (int b = 0; b < blocks.length / 16; b++) {
            System.arraycopy(tag, 0, blocks, 16 * b, 12);
            ByteBuffer.wrap(blocks, 16 * b + 12, 4).putInt(b);
        }
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(kCtr, "AES"));
        ByteBuffer stream = ByteBuffer.wrap(ecb.doFinal(blocks));
        int[] out = new int[words];
        for (int w = 0; w < words; w++) {
            out[w] = stream.getInt();
        }
        return out;
    }

    @Test
    void wordsAreCbcMacThenAesCtrForAnyIdentityLengthAndOrder() throws Exception {
        byte[] longKey = new byte[100];
        for (int i = 0; i < longKey.length; i++) {
            longKey[i] = (byte) (3 * i + 1);
        }
        for (PrivacySecret secret :
                new PrivacySecret[] {TestRandoms.SECRET, PrivacySecret.of(longKey)}) {
            RecordPrf prf = RecordPrf.of(secret, DOMAIN, 8);
            // several identities in a row: each must start from a zero IV despite the reused CBC
            // cipher
            for (byte[] id :
                    new byte[][] {
                        new byte[0], {1, 2, 3}, new byte[8], new byte[200], {9, 8, 7}, {1, 2, 3}
                    }) {
                prf.reset(id);
                int[] expected = reference(secret, id, 70); // 70 words cross a refill
                for (int w = 0; w < expected.length; w++) {
                    assertEquals(
                            expected[w],
                            prf.nextInt(),
                            "identity length " + id.length + ", word " + w);
                }
            }
        }
    }

    @Test
    void identitiesDifferingOnlyInTrailingZerosHaveDifferentTags() {
        RecordPrf prf = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8);
        prf.reset(new byte[] {1});
        byte[] a = prf.tag();
        prf.reset(new byte[] {1, 0});
        assertFalse(Arrays.equals(a, prf.tag()));
    }

    @Test
    void chunkSizeDoesNotChangeTheWords() {
        RecordPrf small = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 1);
        RecordPrf large = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 1000);
        small.reset(new byte[] {5});
        large.reset(new byte[] {5});
        for (int w = 0; w < 600; w++) {
            assertEquals(large.nextInt(), small.nextInt(), "word " + w);
        }
    }

    @Test
    void streamDependsOnIdentityOnlyAndRestartsOnReset() {
        RecordPrf a = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8);
        RecordPrf b = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8);
        a.reset(new byte[] {1});
        int[] first = {a.nextInt(), a.nextInt(), a.nextInt()};
        b.reset(new byte[] {2});
        b.nextInt();
        b.reset(new byte[] {1});
        assertArrayEquals(first, new int[] {b.nextInt(), b.nextInt(), b.nextInt()});
        b.reset(new byte[] {2});
        assertFalse(first[0] == b.nextInt() && first[1] == b.nextInt());
        RecordPrf other = RecordPrf.of(PrivacySecret.of(new byte[16]), DOMAIN, 8);
        other.reset(new byte[] {1});
        assertFalse(first[0] == other.nextInt() && first[1] == other.nextInt());
    }

    @Test
    void boundedDrawsAreInRangeAndRoughlyUniform() {
        RecordPrf prf = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8);
        prf.reset(new byte[] {42});
        int bound = 7;
        int[] counts = new int[bound];
        int n = 70_000;
        for (int i = 0; i < n; i++) {
            int v = prf.nextInt(bound);
            assertTrue(v >= 0 && v < bound);
            counts[v]++;
        }
        double chi2 = 0;
        for (int c : counts) {
            chi2 += Math.pow(c - n / (double) bound, 2) / (n / (double) bound);
        }
        assertTrue(chi2 < 22.5, "chi2 " + chi2); // 6 dof, p ~ 0.001
        assertEquals(0, prf.nextInt(1));
        assertThrows(IllegalArgumentException.class, () -> prf.nextInt(0));
    }

    @Test
    void rejectsNullIdentityAndNonPositiveWordCounts() {
        assertThrows(
                IllegalArgumentException.class,
                () -> RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8).reset(null));
        assertThrows(
                IllegalArgumentException.class, () -> RecordPrf.of(TestRandoms.SECRET, DOMAIN, 0));
    }

    @Test
    void aBatchGivesEachIdentityTheWordsOfItsOwnResetInAnySelectionOrder() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(11);
        for (int words : new int[] {1, 8, 113}) {
            RecordPrf batch = RecordPrf.of(TestRandoms.SECRET, DOMAIN, words);
            RecordPrf single = RecordPrf.of(TestRandoms.SECRET, DOMAIN, words);
            for (int n : new int[] {0, 1, 2, 7, 130}) {
                byte[][] ids = new byte[n + 3][]; // entries past n are never read
                for (int i = 0; i < ids.length; i++) {
                    // lengths around the block edges: 0, 7, 8, 9, 23, 24, 25, ... 300
                    // 248 / 249 bytes: 16 / 17 blocks, side by side / on their own
                    int[] lengths = {0, 1, 7, 8, 9, 23, 24, 25, 40, 106, 114, 248, 249, 300, 5000};
                    ids[i] = new byte[lengths[rng.nextInt(lengths.length)]];
                    rng.nextBytes(ids[i]);
                }
                batch.resetAll(ids, n);
                for (int step = 0; step < 2 * n; step++) {
                    int i = rng.nextInt(n);
                    batch.select(i);
                    single.reset(ids[i]);
                    // past the first chunk (a refill under identity i's nonce)
                    int read = 1 + rng.nextInt(3 * words + 40);
                    for (int w = 0; w < read; w++) {
                        assertEquals(
                                single.nextInt(),
                                batch.nextInt(),
                                "n " + n + ", identity " + i + ", word " + w);
                    }
                    assertArrayEquals(single.tag(), batch.tag());
                    if (step % 3 == 0) { // single resets in between: right words, batch intact
                        byte[] id = ids[rng.nextInt(n)];
                        batch.reset(id);
                        single.reset(id);
                        assertEquals(single.nextInt(), batch.nextInt());
                    }
                }
            }
        }
    }

    @Test
    void aBatchRejectsNullsAndUnknownIndices() {
        RecordPrf prf = RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8);
        assertThrows(
                IllegalArgumentException.class, () -> prf.resetAll(new byte[][] {{1}, null}, 2));
        assertThrows(IllegalArgumentException.class, () -> prf.resetAll(new byte[][] {{1}}, 2));
        prf.resetAll(new byte[][] {{1}, {2}}, 2);
        assertThrows(IllegalArgumentException.class, () -> prf.select(2));
        assertThrows(IllegalArgumentException.class, () -> prf.select(-1));
        // after a batch no stream is current until one is selected (no words of an old stream)
        prf.select(0);
        prf.nextInt();
        prf.resetAll(new byte[][] {{3}, {4}}, 2);
        assertThrows(IllegalStateException.class, prf::nextInt);
        prf.select(1);
        prf.nextInt();
        assertThrows(
                IllegalStateException.class,
                RecordPrf.of(TestRandoms.SECRET, DOMAIN, 8)::nextInt,
                "nothing is current before the first reset");
    }
}
