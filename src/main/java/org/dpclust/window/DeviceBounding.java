package org.dpclust.window;

import org.dpclust.config.StreamSpec;
import org.dpclust.privacy.DeviceReservoir;
import org.dpclust.privacy.PrivacySecret;
import org.dpclust.privacy.RecordHasher;

/**
 * Device-unit contribution bounding of one record against its device's reservoir of the window
 * ({@link DeviceReservoir}: the c records with the smallest keyed hash count), applied to a
 * window's summaries: a record that now counts is added, the record it displaces is subtracted. The
 * one implementation both phases use — phase 1 ({@code stream.WindowPreAggregator}, with the
 * reservoir in its keyed state) and phase 2's record path ({@code stream.StreamClusteringFunction})
 * — so they select the same records. Flink-free; the caller keeps the reservoir. Not thread-safe
 * only in that the summaries are not.
 */
public final class DeviceBounding {
    private final RecordHasher hasher;

    public DeviceBounding(PrivacySecret secret) {
        this.hasher = new RecordHasher(secret);
    }

    /**
     * Where a bounding decision goes: the record that now counts is added, the record it displaces
     * is subtracted. Phase 2 applies both to its window's summaries at once; phase 1 holds the
     * additions for a batched fold ({@code stream.WindowPreAggregator}).
     */
    public interface Target {
        /**
         * The kept record {@code x} (the caller's array: copy it to keep it) with its identity (a
         * fresh array the target may keep).
         */
        void add(double[] x, byte[] identity);

        /** The displaced record, added to this target earlier with the same identity. */
        void subtract(double[] x, byte[] identity);
    }

    /**
     * Offers {@code r} to its device's reservoir {@code entries} (null: none yet) and updates
     * {@code w} accordingly.
     *
     * @return the reservoir to store when the record counts (it may be {@code entries} itself,
     *     changed in place), or null when it does not (nothing changed)
     */
    public long[] offer(StreamSpec s, long[] entries, ValidRecord r, WindowSummaries w) {
        return offer(
                s,
                entries,
                r,
                new Target() {
                    @Override
                    public void add(double[] x, byte[] identity) {
                        w.add(x, identity);
                    }

                    @Override
                    public void subtract(double[] x, byte[] identity) {
                        w.subtract(x, identity);
                    }
                });
    }

    /** As {@link #offer(StreamSpec, long[], ValidRecord, WindowSummaries)}, into any target. */
    public long[] offer(StreamSpec s, long[] entries, ValidRecord r, Target w) {
        byte[] identity = r.identity();
        DeviceReservoir.Offer o =
                new DeviceReservoir(s.dimension(), s.contributionBound())
                        .offer(entries, hasher.hash(identity), r.eventTime, r.features);
        if (!o.counts()) {
            return null;
        }
        if (o.evicted() != null) {
            double[] x = o.evicted().features();
            long t = o.evicted().eventTime();
            w.subtract(x, ValidRecord.identity(r.streamId, r.deviceId, t, x));
        }
        w.add(r.features, identity);
        return o.entries();
    }
}
