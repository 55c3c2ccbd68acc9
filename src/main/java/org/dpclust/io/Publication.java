package org.dpclust.io;

import org.dpclust.avro.CellsRelease;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.RejectedRecord;
import org.dpclust.avro.SketchRelease;
import org.dpclust.kafka.PublicationSerializer;
import org.dpclust.kafka.PublicationTypeInfo;

/**
 * One value the jobs publish, typed by what it is — not by where it goes: the single exactly-once
 * sink's {@link PublicationSerializer} maps each type to its topic, key and encoding, and {@link
 * PublicationTypeInfo} carries it between operators (no Kryo). Values are treated as immutable once
 * emitted. Only {@link WindowMean} is not DP (the non-private benchmark baseline's output). Ledger
 * entries are not publications: the stream's fenced ledger writer ({@code
 * ledger.KafkaLedgerClient}) commits them on the budget topic itself, before the release they
 * charge.
 */
public sealed interface Publication {
    /** A DP centroid release (centroids topic). */
    record Centroids(CentroidRelease value) implements Publication {}

    /** A DP sketch release of {@code ckm} (sketches topic). */
    record Sketch(SketchRelease value) implements Publication {}

    /** The noisy cells of a {@code stats} release (cells topic; {@code stats.publish_cells}). */
    record Cells(CellsRelease value) implements Publication {}

    /**
     * A running release (running topic; {@code running:}): centroids from the sum of the last
     * windows' noisy {@code stats} cells, in the {@link CentroidRelease} schema.
     */
    record Running(CentroidRelease value) implements Publication {}

    /** A record the job could not count, with the reason (dead-letter topic). */
    record DeadLetter(RejectedRecord value) implements Publication {}

    /**
     * The non-private benchmark baseline's window mean (centroids topic of the baseline job; never
     * part of a DP job): window start, record count and the mean, in raw big-endian encoding.
     */
    record WindowMean(String streamId, long windowStart, long count, double[] mean)
            implements Publication {}
}
