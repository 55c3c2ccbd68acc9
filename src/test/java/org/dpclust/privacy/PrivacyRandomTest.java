package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.dpclust.privacy.testing.StatsUtil;
import org.dpclust.privacy.testing.TestRandoms;
import org.junit.jupiter.api.Test;

class PrivacyRandomTest {
    private static final PrivacySecret S = TestRandoms.SECRET;
    private static final byte[] DIGEST = new AccumulatorDigest().add(42L).digest();

    private static ReleaseContext ctx(long window, byte[] digest) {
        return new ReleaseContext("stream-1", window, "dp-kmeans", "laplace", digest);
    }

    private static long[] first(PrivacyRandom r, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextLong();
        }
        return out;
    }

    @Test
    void sameSecretAndContextGiveIdenticalStream() {
        long[] a = first(PrivacyRandom.forRelease(S, ctx(1000, DIGEST)), 1000);
        long[] b = first(PrivacyRandom.forRelease(S, ctx(1000, DIGEST.clone())), 1000);
        assertArrayEquals(a, b);
    }

    @Test
    void differentDigestWindowOrSecretGiveDifferentStreams() {
        long[] base = first(PrivacyRandom.forRelease(S, ctx(1000, DIGEST)), 1000);
        byte[] otherDigest = new AccumulatorDigest().add(43L).digest();
        assertFalse(
                Arrays.equals(
                        base, first(PrivacyRandom.forRelease(S, ctx(1000, otherDigest)), 1000)));
        assertFalse(
                Arrays.equals(base, first(PrivacyRandom.forRelease(S, ctx(2000, DIGEST)), 1000)));
        PrivacySecret s2 = PrivacySecret.of(new byte[32]);
        assertFalse(
                Arrays.equals(base, first(PrivacyRandom.forRelease(s2, ctx(1000, DIGEST)), 1000)));
    }

    /**
     * Independent re-derivation: AES-256-ECB of counter blocks 0..1023 under HMAC(secret, context),
     * read through every keystream fill size.
     */
    @Test
    void streamIsAesCtrKeyedByHmacOfContext() throws Exception {
        ReleaseContext c = ctx(7, DIGEST);
        byte[] key = S.hmacSha256(c.canonicalBytes());
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        // counter blocks 0..1023 (16 KB of keystream: across every fill size, 256 B to 4 KB)
        byte[] counters = new byte[16 * 1024];
        for (int i = 0; i < 1024; i++) {
            counters[16 * i + 14] = (byte) (i >>> 8);
            counters[16 * i + 15] = (byte) i;
        }
        ByteBuffer ks = ByteBuffer.wrap(ecb.doFinal(counters));
        PrivacyRandom r = PrivacyRandom.forRelease(S, c);
        for (int i = 0; i < 2 * 1024; i++) {
            assertEquals(ks.getLong(), r.nextLong(), "word " + i);
        }
        // forContext with the same bytes is the same stream; buffer refill keeps continuity.
        PrivacyRandom r2 = PrivacyRandom.forContext(S, c.canonicalBytes());
        PrivacyRandom r3 = PrivacyRandom.forRelease(S, c);
        assertArrayEquals(first(r3, 2000), first(r2, 2000));
    }

    @Test
    void nextLongBoundIsUniform() {
        PrivacyRandom r = TestRandoms.stream("uniform");
        for (long bound : new long[] {7, 10, 64, 1000}) {
            int n = 200_000;
            long[] counts = new long[(int) bound];
            for (int i = 0; i < n; i++) {
                long v = r.nextLong(bound);
                assertTrue(v >= 0 && v < bound);
                counts[(int) v]++;
            }
            double[] exp = new double[(int) bound];
            Arrays.fill(exp, (double) n / bound);
            double chi = StatsUtil.chiSquare(counts, exp);
            assertTrue(chi < StatsUtil.chiSquareCritical((int) bound - 1), bound + ": chi2 " + chi);
        }
    }

    @Test
    void largeNonPowerOfTwoBoundHasUniformHalves() {
        // bound = 3 * 2^61: a biased modulo reduction of 63 bits would favour the lower third.
        long bound = 3L << 61;
        PrivacyRandom r = TestRandoms.stream("large-bound");
        int n = 90_000;
        long[] thirds = new long[3];
        for (int i = 0; i < n; i++) {
            long v = r.nextLong(bound);
            assertTrue(v >= 0 && v < bound);
            thirds[(int) (v / (1L << 61))]++;
        }
        double chi = StatsUtil.chiSquare(thirds, new double[] {n / 3.0, n / 3.0, n / 3.0});
        // chi-square with 2 df: P(X > x) = exp(-x/2), so the 1e-4 critical value is 2 ln(1e4).
        assertTrue(chi < 2 * Math.log(1e4), "chi2 " + chi);
    }

    @Test
    void nextDoubleAndBooleanAreInRangeAndBalanced() {
        PrivacyRandom r = TestRandoms.stream("double");
        int n = 100_000;
        double sum = 0;
        int trues = 0;
        for (int i = 0; i < n; i++) {
            double d = r.nextDouble();
            assertTrue(d >= 0 && d < 1);
            sum += d;
            trues += r.nextBoolean() ? 1 : 0;
        }
        double sdMean = Math.sqrt(1.0 / 12 / n);
        assertEquals(0.5, sum / n, 5 * sdMean);
        assertEquals(0.5, (double) trues / n, 5 * Math.sqrt(0.25 / n));
        assertThrows(IllegalArgumentException.class, () -> r.nextLong(0));
    }
}
