package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.ConfigOption;
import org.dpclust.launch.SecretFileOption;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code --config}, {@code --secret-file}, {@code --bootstrap-servers} and {@code
 * --kafka-properties} are declared once, as mixins, and every command that has one takes it from
 * its mixin; a command that needs one and lacks it fails with one line naming it.
 */
class SharedOptionsTest {
    private static final Map<String, Class<?>> MIXINS =
            Map.of(
                    "--config", ConfigOption.class,
                    "--secret-file", SecretFileOption.class,
                    "--bootstrap-servers", BootstrapServersOption.class,
                    // nested in BootstrapServersOption: every command talking to Kafka has it
                    "--kafka-properties", BootstrapServersOption.class);

    @Test
    void everyCommandTakesTheSharedOptionsFromTheirMixins() {
        int found = 0;
        for (CommandLine sub : DpclustCommand.commandLine().getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            for (Map.Entry<String, Class<?>> m : MIXINS.entrySet()) {
                if (spec.findOption(m.getKey()) == null) {
                    continue;
                }
                found++;
                boolean fromMixin =
                        spec.mixins().values().stream()
                                .anyMatch(
                                        mixin ->
                                                mixin.userObject().getClass() == m.getValue()
                                                        && mixin.findOption(m.getKey()) != null);
                assertTrue(fromMixin, spec.name() + " declares " + m.getKey() + " itself");
            }
        }
        assertTrue(found >= 14, "shared options found: " + found);
    }

    @Test
    void aMissingRequiredSharedOptionIsOneLineNamingIt() {
        CliRun consume = CliRun.of("consume", "--kind", "budget");
        assertEquals(2, consume.exit(), consume.err());
        assertTrue(
                consume.err().strip().startsWith("dpclust consume: --bootstrap-servers"),
                consume.err());
        CliRun generate = CliRun.of("generate", "--windows", "1");
        assertEquals(2, generate.exit(), generate.err());
        assertTrue(generate.err().strip().startsWith("dpclust generate: --config"), generate.err());
    }
}
