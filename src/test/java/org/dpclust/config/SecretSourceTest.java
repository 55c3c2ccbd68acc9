package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void aGeneratedSecretIsNotLoggedAsAnOptionTheUserPassed() {
        byte[] key = new byte[16];
        key[0] = 7;
        SecretSource generated = SecretSource.temporaryFile(key);
        assertTrue(
                generated.toString().startsWith("a secret generated for this run"),
                generated.toString());
        assertFalse(generated.toString().contains("--secret-file"), generated.toString());
        assertArrayEquals(
                PrivacySecret.of(key).hmacSha256(new byte[] {1}),
                generated.load().hmacSha256(new byte[] {1}));
        assertEquals(
                "--secret-file " + dir.resolve("x").toAbsolutePath(),
                SecretSource.ofFile(dir.resolve("x")).toString());
    }
}
