package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.eval.experiment.Experiments;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code --help} tells: the choices a user has, and no option the command lacks. */
class HelpTest {
    private static String help(String command) {
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        assertEquals(0, cl.execute(command, "--help"));
        return out.toString().replaceAll("\\s+", " ");
    }

    @Test
    void batchAndEvaluateListTheirChoices() {
        String batch = help("batch");
        for (String name : BatchAlgorithms.names()) {
            assertTrue(batch.contains(name), name + " in batch --help");
        }
        String evaluate = help("evaluate");
        for (String name : Experiments.names()) {
            assertTrue(evaluate.contains(name), name + " in evaluate --help");
        }
    }

    /**
     * Every option a command's help names is an option of that command: the shared options'
     * descriptions are shown by every command that has them, so they name no other. An option of
     * another command is named after it ({@code generate --realtime}).
     */
    @Test
    void aCommandsHelpNamesOnlyItsOwnOptions() {
        java.util.regex.Pattern option = java.util.regex.Pattern.compile("--[a-z][a-z0-9-]*");
        int checked = 0;
        for (String name : DpclustCommand.SUBCOMMANDS) {
            if (name.equals("help")) {
                continue;
            }
            CommandLine cl = DpclustCommand.commandLine().getSubcommands().get(name);
            String h = help(name);
            java.util.regex.Matcher m = option.matcher(h);
            while (m.find()) {
                String before = h.substring(0, m.start()).stripTrailing();
                String previousWord = before.substring(before.lastIndexOf(' ') + 1);
                if (!previousWord.equals(name)
                        && DpclustCommand.SUBCOMMANDS.contains(previousWord.replace("(", ""))) {
                    continue; // another command's option, named after its command
                }
                assertTrue(
                        cl.getCommandSpec().findOption(m.group()) != null,
                        name + " --help names " + m.group() + ", which " + name + " lacks");
                checked++;
            }
        }
        assertTrue(checked > 100, "options named: " + checked);
    }
}
