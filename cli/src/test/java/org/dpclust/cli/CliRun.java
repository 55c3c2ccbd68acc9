package org.dpclust.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * One command line executed in-process through {@link DpclustCommand#commandLine()}: its exit code
 * and what it wrote to stderr (the tests' view of a usage error).
 */
public record CliRun(int exit, String err) {
    /** The demo configuration on the broker at {@code bootstrapServers}. */
    public static String demoConfig(String bootstrapServers) throws IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream("/demo-config.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("localhost:9092", bootstrapServers);
        }
    }

    /** A test secret written to {@code dir}; its path. */
    public static Path secretFile(Path dir) throws IOException {
        return Files.writeString(
                dir.resolve("secret.hex"),
                "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
    }

    /** {@code dpclust stream} on a configuration file, creating its topics. */
    public static String[] stream(Path config, Path secret) {
        return new String[] {
            "stream",
            "--config",
            config.toString(),
            "--secret-file",
            secret.toString(),
            "--create-topics"
        };
    }

    public static CliRun of(String... args) {
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        return new CliRun(cl.execute(args), err.toString());
    }
}
