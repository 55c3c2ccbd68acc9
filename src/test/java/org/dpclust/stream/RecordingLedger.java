package org.dpclust.stream;

import java.util.ArrayList;
import java.util.List;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.ledger.InMemoryLedgerClient;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerClient;
import org.dpclust.ledger.LedgerClientFactory;
import org.dpclust.ledger.LedgerDecision;
import org.dpclust.ledger.LedgerMark;

/**
 * An {@link InMemoryLedgerClient} (one budget topic, the fenced writer's protocol without Kafka)
 * that also keeps what its writer committed: the status of every decision that was not a replay, in
 * order, as the budget topic would hold them. For operator harness tests; {@link #factory()} hands
 * the same ledger to every operator instance that opens it (the harness does not serialize the
 * function).
 */
final class RecordingLedger implements LedgerClient {
    private final InMemoryLedgerClient ledger = new InMemoryLedgerClient("budget", "topic-1");
    private final List<BudgetStatus> committed = new ArrayList<>();
    private final List<LedgerCharge> charges = new ArrayList<>();
    private int decided;
    private int flushes;
    private RuntimeException flushFailure;

    /** A deferred decision (the operator's path), committed at once here. */
    @Override
    public synchronized LedgerDecision decide(LedgerCharge charge, LedgerMark seen) {
        decided++;
        return charge(charge, seen);
    }

    @Override
    public synchronized void flush() {
        flushes++;
        if (flushFailure != null) {
            throw flushFailure;
        }
    }

    /** Every later flush throws {@code e} (a fenced commit that decides otherwise, an outage). */
    synchronized void failFlushes(RuntimeException e) {
        flushFailure = e;
    }

    synchronized int decided() {
        return decided;
    }

    synchronized int flushes() {
        return flushes;
    }

    @Override
    public synchronized LedgerDecision charge(LedgerCharge charge, LedgerMark seen) {
        charges.add(charge);
        LedgerDecision d = ledger.charge(charge, seen);
        if (!d.replayed()) {
            committed.add(d.status());
        }
        return d;
    }

    /** The CHARGE and REFUSED statuses on the ledger, in commit order. */
    synchronized List<BudgetStatus> statuses() {
        return List.copyOf(committed);
    }

    /** Every charge request, replays included. */
    synchronized List<LedgerCharge> charges() {
        return List.copyOf(charges);
    }

    /** Empties the ledger (a deleted and recreated budget topic). */
    void wipe() {
        ledger.wipe("topic-2");
    }

    LedgerClientFactory factory() {
        RecordingLedger self = this;
        return () -> self;
    }

    @Override
    public void close() {}
}
