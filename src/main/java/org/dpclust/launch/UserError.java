package org.dpclust.launch;

/**
 * A mistake the user can fix (a bad option value, a missing file, an unreachable broker): {@link
 * UserErrors#install} prints it as one line, {@code dpclust <command>: <option>: <problem>}, and
 * exits with code 2, never with a stack trace. The message is a single line.
 */
public final class UserError extends RuntimeException {
    private final String option;

    /**
     * @param option the option or input at fault, e.g. {@code --windows} (may be empty)
     * @param problem what is wrong and, where it helps, what to do, in one line
     */
    public UserError(String option, String problem) {
        super(option.isEmpty() ? problem : option + ": " + problem);
        this.option = option;
    }

    /** The option or input at fault, e.g. {@code --windows}; empty if none applies. */
    public String option() {
        return option;
    }

    /** Throws a {@link UserError} for {@code option} unless {@code ok}. */
    public static void require(boolean ok, String option, String problem) {
        if (!ok) {
            throw new UserError(option, problem);
        }
    }
}
