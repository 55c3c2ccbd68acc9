package org.dpclust.io;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * How a {@link Dataset}'s coordinates were scaled, and whether that scaling looked at the data.
 *
 * <p>Contract: {@link #dataDerived()} is {@code true} when any step of the scaling was computed
 * from the data set itself (e.g. {@link #toUnitBoxByOwnMinMax}). Such a scaling leaks the data's
 * extremes, so <strong>no output computed from a data-derived scaling may be labelled {@code
 * dp}</strong>; reports must say so (use {@link #describe()}). Scaling to declared public bounds
 * ({@link #toDeclaredBounds}) clamps each coordinate into the declared box and is not data-derived.
 * Scalings compose: scaling an already scaled data set stays data-derived if any earlier step was.
 * Instances are immutable.
 */
public final class DomainScaling {

    private static final DomainScaling NONE =
            new DomainScaling("none (raw source values)", false, null);

    private final String step;
    private final boolean dataDerived;
    private final DomainScaling previous;

    private DomainScaling(String step, boolean dataDerived, DomainScaling previous) {
        this.step = step;
        this.dataDerived = dataDerived || (previous != null && previous.dataDerived);
        this.previous = previous;
    }

    /** The identity: raw values as loaded, not data-derived. */
    public static DomainScaling none() {
        return NONE;
    }

    /**
     * Maps each dimension affinely so the data set's own minimum goes to 0 and its own maximum to 1
     * (a constant dimension maps to 0), as the papers do. The result's scaling is
     * <strong>data-derived</strong>: the min/max are private statistics, so any output computed
     * from the returned data set cannot be labelled {@code dp}.
     */
    public static Dataset toUnitBoxByOwnMinMax(Dataset data) {
        int d = data.dimension();
        double[] min = new double[d];
        double[] max = new double[d];
        Arrays.fill(min, Double.POSITIVE_INFINITY);
        Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (double[] p : data.points()) {
            for (int j = 0; j < d; j++) {
                min[j] = Math.min(min[j], p[j]);
                max[j] = Math.max(max[j], p[j]);
            }
        }
        double[][] out = new double[data.size()][d];
        for (int i = 0; i < data.size(); i++) {
            double[] p = data.points()[i];
            for (int j = 0; j < d; j++) {
                double range = max[j] - min[j];
                out[i][j] = range > 0 ? (p[j] - min[j]) / range : 0.0;
            }
        }
        DomainScaling s =
                new DomainScaling(
                        "min-max to [0,1]^"
                                + d
                                + " using the data's own min "
                                + fmt(min)
                                + " and max "
                                + fmt(max),
                        true,
                        data.scaling());
        return new Dataset(data.name(), out, data.labels(), s);
    }

    /**
     * Clamps each coordinate into the declared public box {@code [lower, upper]} and maps it
     * affinely onto {@code [targetLower, targetUpper]}. Not data-derived (unless an earlier step
     * was), so outputs may carry the {@code dp} label as far as scaling is concerned.
     *
     * @throws IllegalArgumentException if an array's length differs from the dimension or a bound
     *     is not finite with lower &lt; upper
     */
    public static Dataset toDeclaredBounds(
            Dataset data,
            double[] lower,
            double[] upper,
            double[] targetLower,
            double[] targetUpper) {
        int d = data.dimension();
        checkBox(d, lower, upper, "declared");
        checkBox(d, targetLower, targetUpper, "target");
        double[][] out = new double[data.size()][d];
        for (int i = 0; i < data.size(); i++) {
            double[] p = data.points()[i];
            for (int j = 0; j < d; j++) {
                double c = Math.min(upper[j], Math.max(lower[j], p[j]));
                out[i][j] =
                        targetLower[j]
                                + (c - lower[j])
                                        / (upper[j] - lower[j])
                                        * (targetUpper[j] - targetLower[j]);
            }
        }
        DomainScaling s =
                new DomainScaling(
                        "clamp to declared bounds "
                                + fmt(lower)
                                + ".."
                                + fmt(upper)
                                + " then map to "
                                + fmt(targetLower)
                                + ".."
                                + fmt(targetUpper),
                        false,
                        data.scaling());
        return new Dataset(data.name(), out, data.labels(), s);
    }

    /** Whether any step of this scaling was computed from the data (see class contract). */
    public boolean dataDerived() {
        return dataDerived;
    }

    /**
     * One human-readable line for reports: every step in order, and for a data-derived scaling the
     * warning that outputs computed from it cannot be labelled dp.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        appendSteps(sb);
        if (dataDerived) {
            sb.append(" [DATA-DERIVED scaling: outputs computed from it cannot be labelled dp]");
        } else {
            sb.append(" [not data-derived]");
        }
        return sb.toString();
    }

    private void appendSteps(StringBuilder sb) {
        if (previous != null && previous != NONE) {
            previous.appendSteps(sb);
            sb.append("; then ");
        }
        sb.append(step);
    }

    @Override
    public String toString() {
        return describe();
    }

    private static void checkBox(int d, double[] lo, double[] hi, String what) {
        Objects.requireNonNull(lo, what + " lower");
        Objects.requireNonNull(hi, what + " upper");
        if (lo.length != d || hi.length != d) {
            throw new IllegalArgumentException(
                    what
                            + " bounds have length "
                            + lo.length
                            + "/"
                            + hi.length
                            + ", dataset dimension is "
                            + d);
        }
        for (int j = 0; j < d; j++) {
            if (!(Double.isFinite(lo[j]) && Double.isFinite(hi[j]) && lo[j] < hi[j])) {
                throw new IllegalArgumentException(
                        what
                                + " bounds in dimension "
                                + j
                                + " must be finite with lower < upper, got "
                                + lo[j]
                                + ".."
                                + hi[j]);
            }
        }
    }

    private static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int j = 0; j < v.length; j++) {
            if (j > 0) {
                sb.append(", ");
            }
            sb.append(String.format(Locale.ROOT, "%.6g", v[j]));
        }
        return sb.append(']').toString();
    }
}
