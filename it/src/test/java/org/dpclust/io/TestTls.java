package org.dpclust.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dpclust.devkit.EmbeddedKafka;

/**
 * A TLS key pair for the in-process broker's SASL_SSL listener, made in the test with the running
 * JDK's {@code keytool} (no extra dependency): a self-signed EC certificate for {@code localhost}
 * and {@code 127.0.0.1} in a PKCS12 keystore, and a PKCS12 truststore holding only that certificate
 * (what clients are given).
 *
 * @param keystore the broker's key and certificate
 * @param truststore the certificate clients trust
 * @param password the password of both stores and of the key
 */
public record TestTls(Path keystore, Path truststore, String password) {
    /** Generates the stores in {@code dir} (three keytool runs, about a second each). */
    public static TestTls generate(Path dir, String password)
            throws IOException, InterruptedException {
        Path keystore = dir.resolve("broker.p12");
        Path cert = dir.resolve("broker.pem");
        Path truststore = dir.resolve("truststore.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                password,
                "-keypass",
                password);
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "broker",
                "-keystore",
                keystore.toString(),
                "-storepass",
                password,
                "-file",
                cert.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "broker",
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                truststore.toString(),
                "-storepass",
                password);
        return new TestTls(keystore, truststore, password);
    }

    /** The broker side of {@link EmbeddedKafka#startSecured} with this key pair. */
    public EmbeddedKafka.SecureListener listener(String user, String userPassword) {
        return new EmbeddedKafka.SecureListener(keystore, truststore, password, user, userPassword);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.add("-J-Xmx64m");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool " + args[0] + " failed: " + out);
        }
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "TestTls[" + keystore + ", " + truststore + "]";
    }
}
