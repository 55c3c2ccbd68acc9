package org.dpclust.bench.jmh;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.synthetic.DriftingGaussianMixture;

/**
 * Fixed inputs of the micro-benchmarks (reference configuration d = 10, k = 10): the unit box, a
 * batch of {@link #BATCH} records uniform in it with 12-byte identities, a fixed test secret.
 * Public seeds only.
 */
final class BenchData {
    static final int D = 10;
    static final int K = 10;

    /** Records per benchmark invocation (the JMH scores are divided by it: ns per record). */
    static final int BATCH = 1024;

    static final long SEED = 2026;

    private BenchData() {}

    static DomainBounds unitBox() {
        double[] hi = new double[D];
        Arrays.fill(hi, 1.0);
        return new DomainBounds(new double[D], hi);
    }

    /** BATCH records uniform in the unit box (public randomness, not privacy noise). */
    static double[][] records() {
        SplittableRandom rng = new SplittableRandom(SEED);
        double[][] x = new double[BATCH][D];
        for (double[] row : x) {
            for (int t = 0; t < D; t++) {
                row[t] = rng.nextDouble();
            }
        }
        return x;
    }

    /**
     * BATCH records of the stream generator's mixture (window 0 of {@link DriftingGaussianMixture}
     * with k = 10, σ = 0.03 of the box width, as {@code SyntheticTelemetry} draws them), clamped to
     * the unit box as the validator would.
     */
    static double[][] clusteredRecords() {
        DomainBounds box = unitBox();
        double[][] x =
                new DriftingGaussianMixture(box.lowerCopy(), box.upperCopy(), K, 0.03, 0.25, SEED)
                        .sample(0, BATCH);
        for (double[] row : x) {
            for (int t = 0; t < D; t++) {
                row[t] = Math.min(1.0, Math.max(0.0, row[t]));
            }
        }
        return x;
    }

    /** One 12-byte identity per record, as the stream's (producer id, sequence number). */
    static byte[][] identities() {
        byte[][] ids = new byte[BATCH][];
        for (int i = 0; i < BATCH; i++) {
            ids[i] = ByteBuffer.allocate(12).putInt(7).putLong(i).array();
        }
        return ids;
    }

    /** A fixed test secret for masks (never a deployment secret). */
    static PrivacySecret testSecret() {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 0x5a);
        return PrivacySecret.of(key);
    }
}
