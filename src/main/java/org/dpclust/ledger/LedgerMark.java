package org.dpclust.ledger;

import java.io.Serializable;

/**
 * A stream's ledger high-water mark: the budget topic's id (Kafka topic UUID) and the sequence
 * number of the last charge decision the holder has seen committed. The stream job keeps the mark
 * of each stream in its Flink state and passes it back with every charge; a ledger that does not
 * reach it (no marker, another topic id that was not adopted, a lower sequence) has lost history
 * and the charge is refused ({@link LedgerHistoryException}). {@link #NONE} is "has seen nothing".
 */
public record LedgerMark(String topicId, long seq) implements Serializable {
    public static final LedgerMark NONE = new LedgerMark("", 0);

    public LedgerMark {
        if (topicId == null || seq < 0) {
            throw new IllegalArgumentException("invalid ledger mark " + topicId + "/" + seq);
        }
    }

    public boolean seenHistory() {
        return seq > 0;
    }

    /** The later of two marks (state keeps the maximum it has seen). */
    public static LedgerMark max(LedgerMark a, LedgerMark b) {
        if (a == null) {
            return b;
        }
        return b == null || a.seq >= b.seq ? a : b;
    }
}
