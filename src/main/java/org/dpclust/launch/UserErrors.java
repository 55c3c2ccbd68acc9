package org.dpclust.launch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one place that turns a user's mistake into one line on stderr and exit code {@value #EXIT}
 * (installed by {@link #install} as picocli's parameter and execution exception handlers). A user
 * mistake is: a bad option or argument (picocli's parse errors), a {@link UserError}, an {@link
 * IllegalArgumentException} or {@link IllegalStateException} (configuration and input validation
 * report through them, naming the option), a missing or unreadable file named by an option, a Kafka
 * broker that cannot be reached or resolved, or one that refuses the client's credentials or
 * access. Anything else is a bug and keeps its stack trace.
 */
public final class UserErrors {
    /**
     * Installs the one-line handling on a command line: user mistakes (invalid arguments or
     * configuration, unreadable files, unreachable brokers) end the command with one line on stderr
     * and exit code 2, no stack trace.
     */
    public static CommandLine install(CommandLine cl) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(UserErrors::onParameterException);
        cl.setExecutionExceptionHandler(UserErrors::onExecutionException);
        return cl;
    }

    /** Exit code of every user mistake. */
    static final int EXIT = 2;

    private UserErrors() {}

    /** picocli parse errors: one line, then a pointer to the command's help. */
    static int onParameterException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        cmd.getErr().println(name + ": " + problem(ex) + " (see " + name + " --help)");
        return EXIT;
    }

    /**
     * The parse problem in words: an unknown option or command first (a typo such as {@code
     * --algoritm} otherwise surfaces as the required option it left missing), with picocli's
     * closest known names.
     */
    private static String problem(CommandLine.ParameterException ex) {
        List<String> unmatched = ex.getCommandLine().getUnmatchedArguments();
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            unmatched = u.getUnmatched();
        }
        if (unmatched == null || unmatched.isEmpty()) {
            return oneLine(ex.getMessage());
        }
        String what = unmatched.get(0).startsWith("-") ? "unknown option" : "unknown command";
        List<String> close = suggestions(ex);
        return what
                + " '"
                + unmatched.get(0)
                + "'"
                + (close.isEmpty() ? "" : ", did you mean " + String.join(" or ", close) + "?");
    }

    private static List<String> suggestions(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            return u.getSuggestions().stream().limit(3).toList();
        }
        // a missing-option error raised before picocli reported the unmatched one
        return new CommandLine.UnmatchedArgumentException(
                        ex.getCommandLine(), ex.getCommandLine().getUnmatchedArguments())
                .getSuggestions().stream().limit(3).toList();
    }

    /** Business-logic exceptions: one line for a user mistake, else rethrown (a bug). */
    static int onExecutionException(Exception ex, CommandLine cmd, ParseResult parse)
            throws Exception {
        String line = describe(ex, deepest(parse));
        if (line == null) {
            throw ex;
        }
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + line);
        cmd.getErr().flush();
        return EXIT;
    }

    /** The one-line description of {@code ex} if it is a user mistake, else {@code null}. */
    public static String describe(Throwable ex, ParseResult parse) {
        if (ex instanceof UserError) {
            return oneLine(ex.getMessage());
        }
        String security =
                BrokerCheck.securityProblem(ex, null, "kafka.properties or --kafka-properties");
        if (security != null) {
            return security;
        }
        String kafka = kafkaUnreachable(ex, parse);
        if (kafka != null) {
            return kafka;
        }
        if (ex instanceof IllegalArgumentException || ex instanceof IllegalStateException) {
            return oneLine(ex.getMessage());
        }
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException f && f.getFile() != null) {
                return optionNaming(f.getFile(), parse) + f.getFile() + ": " + fileProblem(f);
            }
        }
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException
                    && t.getMessage() != null
                    && t.getMessage().contains("Is a directory")) {
                // reading a directory fails with a bare IOException ("Is a directory") that names
                // no file: name the option whose value is one
                String option = directoryOption(ex, parse);
                if (option != null) {
                    return option + ": a directory, not a file";
                }
            }
        }
        return null;
    }

    /** Options whose value is a directory by design (never blamed for reading one). */
    private static final java.util.Set<String> DIRECTORY_OPTIONS =
            java.util.Set.of("--output", "--out");

    /**
     * "--secret-file DIR" for the file option whose value is an existing directory: the one the
     * messages of {@code ex} name, else the only one; null when there is none or no telling which.
     */
    private static String directoryOption(Throwable ex, ParseResult parse) {
        if (parse == null) {
            return null;
        }
        StringBuilder messages = new StringBuilder();
        for (Throwable t = ex; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        List<String> directories = new ArrayList<>();
        for (OptionSpec o : parse.matchedOptions()) {
            if (DIRECTORY_OPTIONS.contains(o.longestName())) {
                continue;
            }
            for (String value : o.originalStringValues()) {
                try {
                    if (java.nio.file.Files.isDirectory(Path.of(value))) {
                        String named = o.longestName() + " " + value;
                        if (messages.indexOf(named) >= 0) {
                            return named;
                        }
                        directories.add(named);
                    }
                } catch (RuntimeException notAPath) {
                    // not a path value
                }
            }
        }
        return directories.size() == 1 ? directories.get(0) : null;
    }

    private static String fileProblem(FileSystemException f) {
        if (f instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (f instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (f instanceof NotDirectoryException) {
            return "not a directory";
        }
        return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
    }

    /**
     * A broker that does not answer in time, or a bootstrap host that does not resolve: names the
     * hosts (from {@code --bootstrap-servers}, else the configuration) and what to check.
     */
    private static String kafkaUnreachable(Throwable ex, ParseResult parse) {
        boolean timeout = false;
        boolean unresolvable = false;
        for (Throwable t = ex; t != null; t = t.getCause()) {
            String cls = t.getClass().getName();
            timeout |= cls.equals("org.apache.kafka.common.errors.TimeoutException");
            unresolvable |=
                    cls.equals("org.apache.kafka.common.config.ConfigException")
                            && String.valueOf(t.getMessage()).contains("resolvable");
        }
        if (!timeout && !unresolvable) {
            return null;
        }
        String servers =
                parse == null ? null : parse.matchedOptionValue("--bootstrap-servers", null);
        String source = servers != null ? "--bootstrap-servers " + servers : null;
        if (servers != null) {
            List<String> dead = new ArrayList<>();
            for (String hostPort : servers.split(",")) {
                String host = hostPort.trim().replaceFirst(":\\d+$", "");
                try {
                    InetAddress.getByName(host);
                } catch (UnknownHostException e) {
                    dead.add(host);
                }
            }
            if (!dead.isEmpty()) {
                return "Kafka host "
                        + String.join(", ", dead)
                        + " does not resolve (from "
                        + source
                        + "): check the host name, or pass --bootstrap-servers HOST:PORT of a"
                        + " running broker";
            }
            return "no Kafka broker answered at "
                    + servers
                    + " (from --bootstrap-servers): check that a broker is running there and"
                    + " reachable from this machine";
        }
        return unresolvable
                ? "a Kafka bootstrap host does not resolve (kafka.bootstrap_servers in the"
                        + " configuration): check the host name, or pass --bootstrap-servers"
                        + " HOST:PORT of a running broker"
                : "no Kafka broker answered (kafka.bootstrap_servers in the configuration):"
                        + " check that a broker is running there, or pass --bootstrap-servers"
                        + " HOST:PORT";
    }

    /** "--config " if the file is the value of an option, else "". */
    private static String optionNaming(String file, ParseResult parse) {
        if (parse == null) {
            return "";
        }
        Path target = Path.of(file).toAbsolutePath().normalize();
        for (OptionSpec o : parse.matchedOptions()) {
            if (DIRECTORY_OPTIONS.contains(o.longestName())) {
                continue;
            }
            for (String value : o.originalStringValues()) {
                try {
                    if (Objects.equals(Path.of(value).toAbsolutePath().normalize(), target)) {
                        return o.longestName() + " ";
                    }
                } catch (RuntimeException notAPath) {
                    // not a path value
                }
            }
        }
        return "";
    }

    private static ParseResult deepest(ParseResult parse) {
        ParseResult p = parse;
        while (p != null && p.hasSubcommand()) {
            p = p.subcommand();
        }
        return p;
    }

    /** The message on one line (line breaks folded into spaces); the class name if none. */
    static String oneLine(String message) {
        return message == null ? "unknown error" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
