package org.dpclust.io;

import java.io.Serializable;

/**
 * Decodes one input record's value (and key) into {@link RawRecord}'s fields — stream, device,
 * event time, features — or records why it cannot in {@link RawRecord#undecodable}. Reads only;
 * throws only when it cannot decide (a schema registry that cannot be asked); never decides what
 * counts (the validator and the time rules do, for every format alike). Operator-side: what it sees
 * is private input.
 */
public interface InputDecoder extends Serializable {
    void decode(RawRecord raw);
}
