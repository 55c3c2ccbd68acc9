package org.dpclust.config;

/**
 * Invalid dpclust configuration. The message always starts with the option's path, e.g. {@code
 * streams[0].k}. The settings records validate with paths relative to their stream (e.g. {@code
 * stats.cells}); {@link ConfigLoader} places them {@link #under} the stream ({@code streams[0]}).
 */
public final class ConfigException extends IllegalArgumentException {
    private final String option;
    private final String problem;

    public ConfigException(String option, String problem) {
        super(shorten(option) + ": " + problem);
        this.option = option;
        this.problem = problem;
    }

    /**
     * The option's path as the message shows it: a path longer than 100 characters (a junk key the
     * file declared) is cut in the middle, so the message stays one readable line.
     */
    private static String shorten(String option) {
        return option.length() <= 100
                ? option
                : option.substring(0, 60)
                        + "…("
                        + (option.length() - 90)
                        + " characters)…"
                        + option.substring(option.length() - 30);
    }

    /** Path of the offending option, e.g. {@code streams[1].upper[0]}. */
    public String option() {
        return option;
    }

    /** What is wrong with the option, without its path. */
    public String problem() {
        return problem;
    }

    /** The same problem with the option's path placed under {@code prefix}. */
    public ConfigException under(String prefix) {
        ConfigException moved = new ConfigException(prefix + "." + option, problem);
        moved.setStackTrace(getStackTrace());
        return moved;
    }

    /** Throws {@code new ConfigException(option, problem)} unless {@code ok}. */
    static void check(boolean ok, String option, String problem) {
        if (!ok) {
            throw new ConfigException(option, problem);
        }
    }

    /** Whether {@code x} is a finite number greater than zero. */
    static boolean positiveFinite(double x) {
        return x > 0 && !Double.isInfinite(x);
    }

    /** Whether {@code x} is NaN (the derived default) or a share in (0, 1). */
    static boolean derivedOrShare(double x) {
        return Double.isNaN(x) || (x > 0 && x < 1);
    }
}
