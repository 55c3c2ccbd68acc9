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
            LocalCommand.class,
            StreamCommand.class,
            GenerateCommand.class,
            ConsumeCommand.class,
            BatchCommand.class,
            LedgerCommand.class,
            EvaluateCommand.class,
            BenchCommand.class,
            DashboardCommand.class,
            CommandLine.HelpCommand.class
        })
public final class DpclustCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(
            names = "--log-level",
            scope = CommandLine.ScopeType.INHERIT,
            paramLabel = "LEVEL",
            description =
                    "Level of dpclust's own log lines on stderr: ${COMPLETION-CANDIDATES}"
                            + " (default INFO); Kafka and Flink stay at WARN.")
    void setLogLevel(LogLevel level) {
        if (level != null) {
            level.apply();
        }
    }

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
        return withOneLineErrors(new CommandLine(new DpclustCommand()));
    }

    /**
     * User mistakes (invalid arguments or configuration, unreadable files, unreachable brokers) end
     * the command with one line on stderr and exit code 2, no stack trace ({@link UserErrors}).
     */
    static CommandLine withOneLineErrors(CommandLine cl) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(UserErrors::onParameterException);
        cl.setExecutionExceptionHandler(UserErrors::onExecutionException);
        return cl;
    }
}
