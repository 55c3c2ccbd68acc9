package org.dpclust.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dpclust}: the command-line entry point of target/dpclust.jar. */
@Command(
        name = "dpclust",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Continuous, differentially private clustering of telemetry streams on Apache Flink.",
        subcommands = {
            DemoCommand.class,
            StreamCommand.class,
            GenerateCommand.class,
            ConsumeCommand.class,
            BatchCommand.class,
            EvaluateCommand.class,
            BenchCommand.class,
            DashboardCommand.class,
            CommandLine.HelpCommand.class
        })
public final class DpclustCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line (tests execute commands through it): every user mistake prints
     * one line and exits with code 2 ({@link UserErrors}).
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new DpclustCommand());
        cl.setParameterExceptionHandler(UserErrors::onParameterException);
        cl.setExecutionExceptionHandler(UserErrors::onExecutionException);
        return cl;
    }
}
