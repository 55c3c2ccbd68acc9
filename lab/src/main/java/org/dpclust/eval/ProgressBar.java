package org.dpclust.eval;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A textual progress indicator on standard error for long evaluation loops.
 *
 * <p>Contract: on a terminal ({@code System.console() != null}) the line is redrawn in place with
 * {@code \r} at most about 5 times per second; otherwise (CI logs, redirected output) at most one
 * line per 10 % of {@code total} is printed. In both modes {@link #close()} prints one final line
 * with the count and the elapsed time (once; further calls do nothing). Progress beyond {@code
 * total} is counted but displayed as at most 100 %. Not thread-safe: step from one thread.
 */
public final class ProgressBar implements AutoCloseable {

    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    private final String label;
    private final long total;
    private final PrintStream err;
    private final boolean interactive;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private long done;
    private long lastDrawNanos;
    private int lastDecile;
    private boolean closed;

    /** A bar for {@code total} steps on {@code System.err}. */
    public ProgressBar(String label, long total) {
        this(label, total, System.err, System.console() != null, System::nanoTime);
    }

    /** Full constructor (tests and callers that need another stream, mode or clock). */
    ProgressBar(
            String label,
            long total,
            PrintStream err,
            boolean interactive,
            LongSupplier nanoClock) {
        if (total < 0) {
            throw new IllegalArgumentException("total must be >= 0, got " + total);
        }
        this.label = label;
        this.total = total;
        this.err = err;
        this.interactive = interactive;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.lastDrawNanos = Long.MIN_VALUE;
    }

    /** One step done. */
    public void step() {
        stepBy(1);
    }

    /** {@code n ≥ 0} steps done. */
    public void stepBy(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        if (closed) {
            return;
        }
        done += n;
        if (interactive) {
            long now = nanoClock.getAsLong();
            if (lastDrawNanos == Long.MIN_VALUE || now - lastDrawNanos >= REDRAW_NANOS) {
                lastDrawNanos = now;
                err.print("\r" + render());
                err.flush();
            }
        } else if (total > 0) {
            int decile = (int) Math.min(10, done * 10 / total);
            if (decile > lastDecile && decile < 10) {
                lastDecile = decile;
                err.println(render());
            }
        }
    }

    /** Prints the final line; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        double seconds = (nanoClock.getAsLong() - startNanos) / 1e9;
        String line = render() + String.format(Locale.ROOT, " done in %.1f s", seconds);
        err.println(interactive ? "\r" + line : line);
        err.flush();
    }

    private String render() {
        double fraction = total == 0 ? 1.0 : Math.min(1.0, (double) done / total);
        int filled = (int) Math.round(fraction * WIDTH);
        return String.format(
                Locale.ROOT,
                "%s [%s%s] %3d%% %d/%d",
                label,
                "#".repeat(filled),
                " ".repeat(WIDTH - filled),
                Math.round(fraction * 100),
                done,
                total);
    }
}
