package org.dpclust.launch;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.dpclust.config.KafkaConnection;
import picocli.CommandLine.Option;

/**
 * The shared {@code --kafka-properties FILE} option (a picocli mixin, part of {@link
 * BootstrapServersOption} so that every command that talks to Kafka has it): a Java properties file
 * of Kafka client properties (security protocol, SASL, TLS, cloud IAM callback handlers) applied to
 * every client the command builds. With a configuration, its entries are added to {@code
 * kafka.properties} (an entry of both: the file's wins). Job-owned keys are refused and secret
 * values may be references ({@link KafkaConnection}); values are never printed.
 */
public final class KafkaPropertiesOption {
    @Option(
            names = "--kafka-properties",
            paramLabel = "FILE",
            description =
                    "Kafka client properties file (security.protocol, sasl.*, ssl.*; secrets as"
                            + " $${env:NAME} or $${dir:/path:file}); added to the kafka.properties of"
                            + " a configuration file.")
    Path file;

    /** The option as messages name it: {@code --kafka-properties FILE}. */
    String optionName() {
        return "--kafka-properties " + file;
    }

    /** {@code kafka} with the file's properties added, or unchanged without the option. */
    public KafkaConnection applyTo(KafkaConnection kafka) {
        return file == null ? kafka : kafka.withProperties(optionName(), read());
    }

    /**
     * The file's properties; an unreadable file raises an {@link UncheckedIOException} whose cause
     * names the file (reported as one line naming the option).
     */
    Map<String, String> read() {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read --kafka-properties " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> m = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }
}
