package org.dpclust.launch;

import java.nio.file.Path;
import org.dpclust.config.SecretSource;
import org.dpclust.privacy.PrivacySecret;
import picocli.CommandLine.Option;

/**
 * The shared {@code --secret-file} option (a picocli mixin): the file holding the hex HMAC secret
 * that keys all privacy noise; without it the secret comes from the environment ({@link
 * SecretSource}). The secret is never printed or logged.
 */
public final class SecretFileOption {
    @Option(
            names = "--secret-file",
            description = "File with the hex HMAC secret (default: env DPCLUST_SECRET).")
    Path secretFile;

    /** Whether {@code --secret-file} was given. */
    public boolean given() {
        return secretFile != null;
    }

    /** The secret, from the file or the environment; errors name the option. */
    public PrivacySecret resolve() {
        return SecretSource.resolve(secretFile);
    }

    /**
     * Where operators load the secret from on the TaskManager (the file, or the environment): the
     * secret's bytes never travel in the job graph.
     */
    public SecretSource source() {
        return SecretSource.of(secretFile);
    }

    /** Where the secret comes from, for the start-up log (never the secret itself). */
    public String describe() {
        return secretFile != null ? "--secret-file " + secretFile : SecretSource.ENV;
    }
}
