package org.dpclust.cli;

import java.util.List;
import org.dpclust.launch.StreamCommand;
import org.dpclust.launch.UserErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dpclust}: the command-line entry point of target/dpclust.jar. */
@Command(
        name = "dpclust",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Continuous, differentially private clustering of telemetry streams on Apache Flink.")
public final class DpclustCommand implements java.util.concurrent.Callable<Integer> {
    /** The subcommands, in help order ({@link #subcommand} creates each). */
    static final List<String> SUBCOMMANDS =
            List.of(
                    "demo",
                    "local",
                    "stream",
                    "generate",
                    "consume",
                    "batch",
                    "ledger",
                    "evaluate",
                    "bench",
                    "dashboard",
                    "help");

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

    /** Without a command: the usage on stderr and exit code 2, like any other user mistake. */
    @Override
    public Integer call() {
        System.err.println("dpclust: a command is required");
        spec.commandLine().usage(System.err);
        return 2;
    }

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }

    /**
     * The configured command line with every subcommand (tests execute commands through it): every
     * user mistake prints one line and exits with code 2 ({@link UserErrors}).
     */
    public static CommandLine commandLine() {
        return build(null);
    }

    /**
     * The command line for {@code args}: when they name a subcommand, only that one is created, so
     * picocli does not reflect over (and the JVM does not load) the classes of the other commands —
     * a {@code batch} run loads no Flink or Kafka class for the streaming commands; otherwise (no
     * or an unknown command, {@code --help}) every subcommand, as {@link #commandLine()}.
     */
    static CommandLine commandLine(String[] args) {
        String name = commandName(args);
        return build(name != null && SUBCOMMANDS.contains(name) ? name : null);
    }

    /** The first argument that is not a root option (or the value of {@code --log-level}). */
    static String commandName(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--log-level")) {
                i++;
            } else if (!args[i].startsWith("-")) {
                return args[i];
            }
        }
        return null;
    }

    private static CommandLine build(String only) {
        CommandLine cl = new CommandLine(new DpclustCommand());
        for (String name : SUBCOMMANDS) {
            if (only == null || only.equals(name)) {
                cl.addSubcommand(name, subcommand(name));
            }
        }
        return UserErrors.install(cl);
    }

    /** A new instance of the named subcommand (each class is loaded only when named here). */
    private static Object subcommand(String name) {
        return switch (name) {
            case "demo" -> new DemoCommand();
            case "local" -> new LocalCommand();
            case "stream" -> new StreamCommand();
            case "generate" -> new GenerateCommand();
            case "consume" -> new ConsumeCommand();
            case "batch" -> new BatchCommand();
            case "ledger" -> new LedgerCommand();
            case "evaluate" -> new EvaluateCommand();
            case "bench" -> new BenchCommand();
            case "dashboard" -> new DashboardCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }
}
