package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.privacy.PrivacySecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretSourceTest {
    @TempDir Path dir;

    @Test
    void readsAHexSecretFile() throws Exception {
        Path f = dir.resolve("s");
        Files.writeString(f, "000102030405060708090a0b0c0d0e0f\n");
        PrivacySecret s = SecretSource.resolve(f);
        assertArrayEquals(
                PrivacySecret.fromHex("000102030405060708090a0b0c0d0e0f")
                        .hmacSha256(new byte[] {1}),
                s.hmacSha256(new byte[] {1}));
    }

    @Test
    void rejectsShortOrMalformedSecretsNamingTheSource() throws Exception {
        Path f = dir.resolve("s");
        Files.writeString(f, "abcd");
        assertEquals(
                "--secret-file " + f,
                assertThrows(ConfigException.class, () -> SecretSource.resolve(f)).option());
        Files.writeString(f, "zz0102030405060708090a0b0c0d0e0f");
        assertEquals(
                "--secret-file " + f,
                assertThrows(ConfigException.class, () -> SecretSource.resolve(f)).option());
    }
}
