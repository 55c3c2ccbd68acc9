package org.dpclust.config;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import org.dpclust.privacy.PrivacySecret;

/**
 * Where the HMAC secret keying all privacy randomness comes from: a file ({@code --secret-file},
 * e.g. a mounted secret) or the environment variable {@value #ENV} (hex, at least 32 hex digits).
 * The secret is operator-side: whoever holds it can recompute the noise of every release. It is
 * never logged or written to Kafka.
 *
 * <p>This record is only the location, never the secret: jobs pass it to their operators, which
 * {@link #load()} the secret in {@code open()} on the TaskManager, so the key bytes are not part of
 * the serialized job graph (nor of the JobManager's HA or blob storage). The file must therefore
 * exist at the same path on every TaskManager, or the variable be set in their environment.
 *
 * @param file absolute path of the secret file, or null to read {@code envVar}
 * @param envVar the environment variable holding the secret when {@code file} is null
 * @param generated whether {@code file} is a temporary file this process wrote ({@link
 *     #temporaryFile}: no option named it, and logs say so)
 */
public record SecretSource(String file, String envVar, boolean generated) implements Serializable {
    public static final String ENV = "DPCLUST_SECRET";

    /** A secret the user named: a file ({@code --secret-file}) or the environment variable. */
    public SecretSource(String file, String envVar) {
        this(file, envVar, false);
    }

    /** The secret in a file. */
    public static SecretSource ofFile(Path file) {
        return new SecretSource(file.toAbsolutePath().toString(), null);
    }

    /** The secret in the environment variable {@value #ENV}. */
    public static SecretSource environment() {
        return new SecretSource(null, ENV);
    }

    /** {@code --secret-file} when given, else the environment variable {@value #ENV}. */
    public static SecretSource of(Path secretFile) {
        return secretFile != null ? ofFile(secretFile) : environment();
    }

    /**
     * Writes {@code key} (hex) to a new temporary file readable by the owner only, deleted when the
     * JVM exits: for in-process runs (the demo, benchmarks, tests) whose TaskManager is this JVM.
     */
    public static SecretSource temporaryFile(byte[] key) {
        try {
            Path f =
                    Files.createTempFile(
                            "dpclust-secret",
                            ".hex",
                            PosixFilePermissions.asFileAttribute(
                                    PosixFilePermissions.fromString("rw-------")));
            f.toFile().deleteOnExit();
            Files.writeString(f, HexFormat.of().formatHex(key));
            return new SecretSource(f.toAbsolutePath().toString(), null, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a temporary secret file", e);
        }
    }

    /** Reads the secret now (for a start-up check, or in an operator's {@code open()}). */
    public static PrivacySecret resolve(Path secretFile) {
        return of(secretFile).load();
    }

    /**
     * Reads and parses the secret.
     *
     * @throws ConfigException naming the option ({@code --secret-file PATH} or the variable) when
     *     it is missing or not a hex key of at least 128 bits
     * @throws UncheckedIOException when the file cannot be read
     */
    public PrivacySecret load() {
        if (file != null) {
            Path p = Path.of(file);
            try {
                return parse("--secret-file " + p, Files.readString(p).trim());
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot read --secret-file " + p + ": " + e.getMessage(), e);
            }
        }
        String env = System.getenv(envVar);
        if (env == null || env.isBlank()) {
            throw new ConfigException(
                    envVar,
                    "no secret: set " + envVar + " (hex, >= 32 digits) or pass --secret-file");
        }
        return parse(envVar, env.trim());
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

    @Override
    public String toString() {
        if (generated) {
            return "a secret generated for this run (temporary file " + file + ")";
        }
        return file != null ? "--secret-file " + file : "env " + envVar;
    }
}
