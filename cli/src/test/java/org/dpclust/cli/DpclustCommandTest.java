package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The entry point creates only the subcommand the arguments name (start-up cost), else all. */
class DpclustCommandTest {

    private static Set<String> subcommands(String... args) {
        return DpclustCommand.commandLine(args).getSubcommands().keySet();
    }

    @Test
    void aNamedCommandIsTheOnlySubcommandCreated() {
        assertEquals(Set.of("batch"), subcommands("batch", "--algorithm", "lloyd"));
        assertEquals(Set.of("ledger"), subcommands("--log-level", "debug", "ledger", "show"));
        assertEquals(Set.of("bench"), subcommands("--log-level=warn", "bench", "lloyd"));
        assertEquals("stream", DpclustCommand.commandName(new String[] {"-h", "stream"}));
        assertNull(DpclustCommand.commandName(new String[] {"--log-level", "info"}));
    }

    @Test
    void noOrAnUnknownCommandCreatesEverySubcommandInHelpOrder() {
        assertEquals(DpclustCommand.SUBCOMMANDS, List.copyOf(subcommands()));
        assertEquals(DpclustCommand.SUBCOMMANDS, List.copyOf(subcommands("--help")));
        assertEquals(DpclustCommand.SUBCOMMANDS, List.copyOf(subcommands("nonsense")));
        CommandLine all = DpclustCommand.commandLine();
        assertEquals(DpclustCommand.SUBCOMMANDS, List.copyOf(all.getSubcommands().keySet()));
        assertEquals(2, DpclustCommand.commandLine(new String[] {"nonsense"}).execute("nonsense"));
    }
}
