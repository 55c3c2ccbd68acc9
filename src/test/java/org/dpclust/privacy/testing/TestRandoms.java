package org.dpclust.privacy.testing;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.dpclust.config.SecretSource;
import org.dpclust.privacy.PrivacyRandom;
import org.dpclust.privacy.PrivacySecret;

/**
 * Fixed test secrets and named randomness streams, so every statistical test is deterministic:
 * nothing but these fixed secrets seeds test randomness.
 */
public final class TestRandoms {
    private TestRandoms() {}

    /** The fixed test secret (never use outside tests). */
    public static final String SECRET_HEX =
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    /** The fixed test secret (never use outside tests). */
    public static final PrivacySecret SECRET = PrivacySecret.fromHex(SECRET_HEX);

    /**
     * Where operators under test load {@link #SECRET} from: a temporary file (operators never carry
     * the secret itself).
     */
    public static SecretSource secretSource() {
        return SecretSource.temporaryFile(HexFormat.of().parseHex(SECRET_HEX));
    }

    /** A stream keyed by the fixed secret and a test-specific label. */
    public static PrivacyRandom stream(String label) {
        return PrivacyRandom.forContext(SECRET, ("test/" + label).getBytes(StandardCharsets.UTF_8));
    }
}
