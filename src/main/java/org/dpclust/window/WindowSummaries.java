package org.dpclust.window;

import org.dpclust.geometry.DomainBounds;
import org.dpclust.kmeans.ClusterStatistics;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.sketch.MaskedSketch;
import org.dpclust.sketch.SketchMasks;

/**
 * The exact (un-noised, operator-side) summaries of one (stream, window): cluster statistics,
 * masked sketch ({@code ckm} on) and counts per point of the HST universe ({@code dp-hst} on), each
 * a fixed-point long array whose size depends on the configuration only, never on the number of
 * records. Adding a record, subtracting an evicted one and merging another window's partial are
 * integer additions, so the result does not depend on order or on how records were split. Reuses
 * its work arrays; the sketch's mask derivation is the thread's, looked up once per instance: no
 * allocation per record besides the record identity the mask is keyed by (and only when a sketch is
 * kept, see {@link #needsIdentity()}). Not thread-safe.
 */
public final class WindowSummaries {
    public final long windowStart;
    public final ClusterStatistics stats;

    /** The masked sketch, or null without {@code ckm}. */
    public final MaskedSketch sketch;

    /** Counts per universe point, or null without {@code dp-hst}. */
    public final long[] hst;

    private final StreamRuntime rt;
    private final long[] encoded;
    private long records;

    private WindowSummaries(
            StreamRuntime rt,
            PrivacySecret secret,
            long windowStart,
            long[] stats,
            long[] sketch,
            long[] hst) {
        this.rt = rt;
        this.windowStart = windowStart;
        int cells = rt.spec().statsCells();
        int d = rt.spec().dimension();
        this.stats =
                stats == null
                        ? new ClusterStatistics(cells, d)
                        : ClusterStatistics.wrap(cells, d, stats);
        if (rt.frequencies() != null) {
            DomainBounds b = rt.codec().bounds();
            int r = rt.spec().ckm().r();
            int m = rt.frequencies().size();
            long[] state = sketch == null ? new long[2 * m + 1] : sketch;
            // a stream's masks are block masks (CkmSettings), none when r = m; the thread's mask
            // derivation, looked up once per window rather than once per record
            this.sketch =
                    r < m
                            ? MaskedSketch.wrap(
                                    rt.frequencies(),
                                    b,
                                    SketchMasks.forThread(m, r, SketchMasks.Shape.BLOCK, secret),
                                    state)
                            : MaskedSketch.wrap(rt.frequencies(), b, r, secret, state);
        } else {
            this.sketch = null;
        }
        this.hst = rt.hst() == null ? null : hst == null ? new long[rt.hst().universeSize()] : hst;
        this.encoded = new long[d];
    }

    /**
     * Empty summaries (a window without records is released too); the secret keys the sketch masks.
     */
    public static WindowSummaries empty(StreamRuntime rt, PrivacySecret secret, long windowStart) {
        return new WindowSummaries(rt, secret, windowStart, null, null, null);
    }

    /** Wraps (does not copy) state arrays; a null array stands for an empty summary. */
    public static WindowSummaries wrap(
            StreamRuntime rt,
            PrivacySecret secret,
            long windowStart,
            long[] stats,
            long[] sketch,
            long[] hst) {
        return new WindowSummaries(rt, secret, windowStart, stats, sketch, hst);
    }

    /**
     * Whether {@link #add} reads the record identity (it keys the sketch masks); when false,
     * callers may pass null instead of building it.
     */
    public boolean needsIdentity() {
        return sketch != null;
    }

    /** Adds one validated (clamped) record with its identity (see {@link #needsIdentity()}). */
    public void add(double[] x, byte[] identity) {
        rt.codec().encode(x, encoded);
        stats.add(rt.cells().nearest(x), encoded);
        if (sketch != null) {
            sketch.add(x, identity);
        }
        if (hst != null) {
            hst[rt.hst().snap(x)]++;
        }
        records++;
    }

    /**
     * Adds records {@code 0..n-1} of {@code xs} (validated, clamped) with their identities (see
     * {@link #needsIdentity()}; entries may be null when false): the same sums as n calls of {@link
     * #add}, since every summary is an integer sum, computed summary by summary — all records'
     * cells, then their sketch updates, then their HST points — so each summary's public tables
     * (cell centres, frequencies, universe) stay in cache across the batch instead of competing per
     * record.
     */
    public void addAll(double[][] xs, byte[][] identities, int n) {
        // all or nothing: every record is checked before any summary changes
        boolean masked = sketch != null && sketch.r() < sketch.frequencies().size();
        for (int i = 0; i < n; i++) {
            rt.codec().bounds().checkRecord(xs[i]);
            if (masked && identities[i] == null) {
                throw new IllegalArgumentException("record " + i + " has no identity");
            }
        }
        ClusterStatistics s = stats;
        for (int i = 0; i < n; i++) {
            rt.codec().encode(xs[i], encoded);
            s.add(rt.cells().nearest(xs[i]), encoded);
        }
        if (sketch != null) {
            sketch.addAll(xs, identities, n);
        }
        if (hst != null) {
            for (int i = 0; i < n; i++) {
                hst[rt.hst().snap(xs[i])]++;
            }
        }
        records += n;
    }

    /**
     * Removes a record added before with the same features and identity (device bounding evicts).
     */
    public void subtract(double[] x, byte[] identity) {
        rt.codec().encode(x, encoded);
        stats.subtract(rt.cells().nearest(x), encoded);
        if (sketch != null) {
            sketch.subtract(x, identity);
        }
        if (hst != null) {
            hst[rt.hst().snap(x)]--;
        }
        records--;
    }

    /**
     * Adds another partial of the same stream and window element-wise (a null array: that summary
     * had nothing).
     */
    public void merge(
            long partialRecords, long[] statistics, long[] sketchState, long[] hstCounts) {
        addInto(stats.state(), statistics);
        if (sketch != null) {
            addInto(sketch.state(), sketchState);
        }
        if (hst != null) {
            addInto(hst, hstCounts);
        }
        records += partialRecords;
    }

    /** Records folded in (after evictions). */
    public long records() {
        return records;
    }

    /** The sketch's state array, or null without {@code ckm}. */
    public long[] sketchState() {
        return sketch == null ? null : sketch.state();
    }

    private static void addInto(long[] into, long[] part) {
        if (part == null) {
            return;
        }
        if (part.length != into.length) {
            throw new IllegalArgumentException(
                    "partial has " + part.length + " longs, expected " + into.length);
        }
        for (int i = 0; i < into.length; i++) {
            into[i] += part[i];
        }
    }
}
