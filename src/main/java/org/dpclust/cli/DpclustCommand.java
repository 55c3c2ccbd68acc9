package org.dpclust.cli;

/** Placeholder entry point; replaced by the picocli root command. */
public final class DpclustCommand {
    private DpclustCommand() {}

    public static void main(String[] args) {
        System.err.println("dpclust: no commands yet");
        System.exit(2);
    }
}
