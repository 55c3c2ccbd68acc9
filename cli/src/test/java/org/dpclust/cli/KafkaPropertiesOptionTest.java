package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kafka-properties FILE} on every command that talks to Kafka: refused keys and unreadable
 * files fail at start-up with one line naming the option, before any Kafka client is created.
 */
class KafkaPropertiesOptionTest {
    private static final String SECRET = "hunter2-never-echoed";

    private static String oneLine(CliRun r) {
        assertEquals(2, r.exit(), r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), r.err());
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains(SECRET), err);
        return err;
    }

    /** {@code consume} with {@code --kafka-properties file}: its one stderr line. */
    private static String consumeWith(Path file) {
        return oneLine(
                CliRun.of(
                        "consume",
                        "--bootstrap-servers",
                        "127.0.0.1:1",
                        "--kafka-properties",
                        file.toString()));
    }

    @Test
    void helpShowsTheSecretReferenceSyntaxLiterally() {
        // picocli interpolates ${...} in descriptions; the help must show Kafka's own syntax.
        String help =
                DpclustCommand.commandLine()
                        .getSubcommands()
                        .get("consume")
                        .getUsageMessage()
                        .replaceAll("\\s+", " ");
        assertTrue(help.contains("${env:NAME} or ${dir:"), help);
        assertFalse(help.contains("null or null"), help);
    }

    @Test
    void everyKafkaCommandTakesTheOptionAndRefusesJobOwnedKeys(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(
                file,
                "security.protocol=SASL_SSL\nsasl.jaas.config=x password=\""
                        + SECRET
                        + "\";\ntransactional.id=mine\n");
        for (String[] cmd :
                new String[][] {
                    {"consume", "--bootstrap-servers", "127.0.0.1:1"},
                    {"dashboard", "--bootstrap-servers", "127.0.0.1:1"},
                    {"ledger", "verify", "--stream", "s", "--bootstrap-servers", "127.0.0.1:1"},
                }) {
            String[] args = new String[cmd.length + 2];
            System.arraycopy(cmd, 0, args, 0, cmd.length);
            args[cmd.length] = "--kafka-properties";
            args[cmd.length + 1] = file.toString();
            String err = oneLine(CliRun.of(args));
            assertTrue(
                    err.contains("--kafka-properties " + file + ".transactional.id"),
                    cmd[0] + ": " + err);
            assertTrue(err.contains("set kafka.transactional_id_prefix"), err);
        }
    }

    @Test
    void aMissingFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        String err = consumeWith(missing);
        assertTrue(err.contains("--kafka-properties " + missing), err);
    }

    @Test
    void anUnsetEnvironmentVariableIsNamedBeforeConnecting(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "sasl.jaas.config=x password=\"${env:DPCLUST_TEST_UNSET_9}\";\n");
        String err = consumeWith(file);
        assertTrue(err.contains("sasl.jaas.config"), err);
        assertTrue(err.contains("${env:DPCLUST_TEST_UNSET_9}' does not resolve"), err);
    }
}
