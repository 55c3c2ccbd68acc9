package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void consumeNamesNoConfigItLacks() {
        String consume = help("consume");
        assertFalse(consume.contains("--config "), consume);
        assertFalse(consume.contains("of --config"), consume);
    }
}
