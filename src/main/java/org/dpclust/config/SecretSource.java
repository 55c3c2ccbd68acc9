package org.dpclust.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.privacy.PrivacySecret;

/**
 * Where the HMAC secret keying all privacy randomness comes from: {@code --secret-file} or the
 * environment variable {@value #ENV} (hex, at least 32 hex digits). The secret is operator-side:
 * whoever holds it can recompute the noise of every release. It is never logged or written to
 * Kafka.
 */
public final class SecretSource {
    public static final String ENV = "DPCLUST_SECRET";

    private SecretSource() {}

    public static PrivacySecret resolve(Path secretFile) {
        if (secretFile != null) {
            try {
                return parse("--secret-file " + secretFile, Files.readString(secretFile).trim());
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot read --secret-file " + secretFile + ": " + e.getMessage(), e);
            }
        }
        String env = System.getenv(ENV);
        if (env == null || env.isBlank()) {
            throw new ConfigException(
                    ENV, "no secret: set " + ENV + " (hex, >= 32 digits) or pass --secret-file");
        }
        return parse(ENV, env.trim());
    }

    private static PrivacySecret parse(String option, String hex) {
        if (hex.length() < 32) {
            throw new ConfigException(option, "secret must be at least 32 hex digits (128 bits)");
        }
        try {
            return PrivacySecret.fromHex(hex);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(option, e.getMessage());
        }
    }
}
