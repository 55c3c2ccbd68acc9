package org.dpclust.geometry;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The declared (public) box [lower, upper] of a stream. Values are clamped into it before they
 * touch any accumulator, so every sensitivity in dpclust is derived from these bounds and never
 * from the data.
 */
public final class DomainBounds implements Serializable {
    private final double[] lower;
    private final double[] upper;

    public DomainBounds(double[] lower, double[] upper) {
        if (lower.length != upper.length || lower.length == 0) {
            throw new IllegalArgumentException(
                    "lower and upper must have the same, positive length");
        }
        for (int j = 0; j < lower.length; j++) {
            if (!(upper[j] > lower[j])
                    || !Double.isFinite(lower[j])
                    || !Double.isFinite(upper[j])) {
                throw new IllegalArgumentException(
                        "bounds[" + j + "] must be finite with upper > lower");
            }
        }
        this.lower = lower.clone();
        this.upper = upper.clone();
    }

    public int dimension() {
        return lower.length;
    }

    /**
     * Checks a record of this domain before it is clamped: its dimension and finite coordinates.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public void checkRecord(double[] x) {
        if (x.length != lower.length) {
            throw new IllegalArgumentException(
                    "record has dimension " + x.length + ", expected " + lower.length);
        }
        for (int t = 0; t < x.length; t++) {
            if (!Double.isFinite(x[t])) {
                throw new IllegalArgumentException("coordinate " + t + " is not finite");
            }
        }
    }

    public double lower(int j) {
        return lower[j];
    }

    public double upper(int j) {
        return upper[j];
    }

    public double width(int j) {
        return upper[j] - lower[j];
    }

    public double mid(int j) {
        return lower[j] + 0.5 * (upper[j] - lower[j]);
    }

    /**
     * Largest per-dimension width: the unit in which dpclust reports distances ("domain width").
     */
    public double maxWidth() {
        double w = 0;
        for (int j = 0; j < lower.length; j++) {
            w = Math.max(w, width(j));
        }
        return w;
    }

    /** Euclidean diameter of the box. */
    public double diameter() {
        double s = 0;
        for (int j = 0; j < lower.length; j++) {
            s += width(j) * width(j);
        }
        return Math.sqrt(s);
    }

    /**
     * Clamps {@code x} into the box, writing into {@code out} (may be {@code x}).
     *
     * @return the number of coordinates that had to be clamped
     */
    public int clamp(double[] x, double[] out) {
        int clamped = 0;
        for (int j = 0; j < lower.length; j++) {
            double v = x[j];
            if (v < lower[j]) {
                v = lower[j];
                clamped++;
            } else if (v > upper[j]) {
                v = upper[j];
                clamped++;
            }
            out[j] = v;
        }
        return clamped;
    }

    public double[] lowerCopy() {
        return lower.clone();
    }

    public double[] upperCopy() {
        return upper.clone();
    }

    @Override
    public String toString() {
        return "DomainBounds" + Arrays.toString(lower) + ".." + Arrays.toString(upper);
    }
}
