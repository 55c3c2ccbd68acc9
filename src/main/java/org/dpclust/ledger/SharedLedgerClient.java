package org.dpclust.ledger;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A handle on the one {@link KafkaLedgerClient} per JVM and {@link LedgerSettings}: every operator
 * subtask of a TaskManager that charges the same budget topic shares its writers (a producer and a
 * consumer per budget-topic partition), so threads and broker connections do not grow with the
 * number of streams or subtasks. Reference counted: the client closes with its last handle.
 * Deferred decisions are the client's, not the handle's: any handle's {@link #flush} commits them
 * all (earlier than needed is allowed). A flush that fails voids them all, whichever handle called
 * it; so a handle that deferred decisions fails its own next {@link #flush} (and {@link #decide})
 * once any flush of the client failed since its last one — its caller must not publish what they
 * paid for.
 */
public final class SharedLedgerClient implements LedgerClient {
    private static final Map<LedgerSettings, Shared> OPEN = new HashMap<>();

    private final LedgerSettings settings;
    private final KafkaLedgerClient client;
    private boolean closed;
    private boolean deferring; // decisions deferred since this handle's last flush
    private long failuresSeen;

    private SharedLedgerClient(LedgerSettings settings, KafkaLedgerClient client) {
        this.settings = settings;
        this.client = client;
    }

    /** A handle on this JVM's client for {@code settings}, opening it if none is open. */
    public static SharedLedgerClient acquire(LedgerSettings settings) {
        return acquire(settings, KafkaLedgerClient.SNAPSHOT_LAG);
    }

    /** {@link #acquire} with the client's snapshot distance (tests write snapshots more often). */
    static SharedLedgerClient acquire(LedgerSettings settings, long snapshotLag) {
        synchronized (OPEN) {
            Shared s = OPEN.get(settings);
            if (s == null) {
                s = new Shared(KafkaLedgerClient.open(settings, snapshotLag));
                OPEN.put(settings, s);
            }
            s.handles++;
            SharedLedgerClient h = new SharedLedgerClient(settings, s.client);
            h.failuresSeen = s.client.failedFlushes();
            return h;
        }
    }

    @Override
    public LedgerDecision charge(LedgerCharge charge, LedgerMark seen) {
        return client.charge(charge, seen);
    }

    @Override
    public synchronized LedgerDecision decide(LedgerCharge charge, LedgerMark seen) {
        requireNoFailedFlush();
        deferring = true;
        return client.decide(charge, seen);
    }

    @Override
    public synchronized void flush() {
        requireNoFailedFlush();
        long failures;
        try {
            failures = client.flushCountingFailures();
        } catch (RuntimeException e) {
            failuresSeen = client.failedFlushes(); // this failure is reported here
            deferring = false;
            throw e;
        }
        // another handle's flush may have taken this handle's decisions and failed while this one
        // waited for it: then they were voided, and nothing here committed them (a failure after
        // this flush ended cannot void them)
        if (deferring && failures > failuresSeen) {
            failuresSeen = failures;
            deferring = false;
            throw new LedgerConflictException(
                    "a flush of the shared ledger client failed while this handle's flush waited"
                            + " and voided the decisions it deferred: what they paid for must not"
                            + " be published");
        }
        failuresSeen = Math.max(failuresSeen, failures);
        deferring = false;
    }

    /** Throws if this handle deferred decisions and a flush of the client failed since. */
    private void requireNoFailedFlush() {
        long now = client.failedFlushes();
        if (deferring && now > failuresSeen) {
            failuresSeen = now;
            deferring = false;
            throw new LedgerConflictException(
                    "a flush of the shared ledger client failed and voided the decisions this"
                            + " handle deferred: what they paid for must not be published");
        }
        failuresSeen = Math.max(failuresSeen, now);
    }

    @Override
    public void register(Collection<String> streams) {
        client.register(streams);
    }

    @Override
    public void close() {
        synchronized (OPEN) {
            if (closed) {
                return;
            }
            closed = true;
            Shared s = OPEN.get(settings);
            if (s != null && s.client == client && --s.handles == 0) {
                OPEN.remove(settings);
                client.close();
            }
        }
    }

    private static final class Shared {
        final KafkaLedgerClient client;
        int handles;

        Shared(KafkaLedgerClient client) {
            this.client = client;
        }
    }
}
