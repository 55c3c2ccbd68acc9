package org.dpclust.batch;

import org.dpclust.geometry.DomainBounds;

/**
 * Declared bounds written as text, {@code "lo1,lo2,...;hi1,hi2,..."} (the {@code --bounds} option):
 * finite numbers, as many lower as upper bounds, each lower below its upper. Every problem is an
 * {@link IllegalArgumentException} whose message starts with {@code --bounds}.
 */
public final class DeclaredBounds {
    private DeclaredBounds() {}

    /** Parses {@code text}; see the class comment. */
    public static DomainBounds parse(String text) {
        String[] parts = text.split(";", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(
                    "--bounds: expected \"lo1,lo2,...;hi1,hi2,...\", was '" + text + "'");
        }
        double[] lo = numbers(parts[0]);
        double[] hi = numbers(parts[1]);
        if (lo.length != hi.length) {
            throw new IllegalArgumentException(
                    "--bounds: " + lo.length + " lower but " + hi.length + " upper bounds");
        }
        try {
            return new DomainBounds(lo, hi);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--bounds: " + e.getMessage(), e);
        }
    }

    private static double[] numbers(String csv) {
        String[] f = csv.split(",", -1);
        double[] v = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            try {
                v[i] = Double.parseDouble(f[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--bounds: '" + f[i].trim() + "' is not a number", e);
            }
            if (!Double.isFinite(v[i])) {
                throw new IllegalArgumentException("--bounds: '" + f[i].trim() + "' is not finite");
            }
        }
        return v;
    }
}
