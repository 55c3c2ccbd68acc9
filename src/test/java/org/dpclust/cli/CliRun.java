package org.dpclust.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One command line executed in-process through {@link DpclustCommand#commandLine()}: its exit code
 * and what it wrote to stderr (the tests' view of a usage error).
 */
public record CliRun(int exit, String err) {
    public static CliRun of(String... args) {
        CommandLine cl = DpclustCommand.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        return new CliRun(cl.execute(args), err.toString());
    }
}
