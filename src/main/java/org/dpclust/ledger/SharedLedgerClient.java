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
 * all (earlier than needed is allowed).
 */
public final class SharedLedgerClient implements LedgerClient {
    private static final Map<LedgerSettings, Shared> OPEN = new HashMap<>();

    private final LedgerSettings settings;
    private final KafkaLedgerClient client;
    private boolean closed;

    private SharedLedgerClient(LedgerSettings settings, KafkaLedgerClient client) {
        this.settings = settings;
        this.client = client;
    }

    /** A handle on this JVM's client for {@code settings}, opening it if none is open. */
    public static SharedLedgerClient acquire(LedgerSettings settings) {
        synchronized (OPEN) {
            Shared s = OPEN.get(settings);
            if (s == null) {
                s = new Shared(KafkaLedgerClient.open(settings));
                OPEN.put(settings, s);
            }
            s.handles++;
            return new SharedLedgerClient(settings, s.client);
        }
    }

    /** The shared client (for metrics and tests). */
    public KafkaLedgerClient client() {
        return client;
    }

    @Override
    public LedgerDecision charge(LedgerCharge charge, LedgerMark seen) {
        return client.charge(charge, seen);
    }

    @Override
    public LedgerDecision decide(LedgerCharge charge, LedgerMark seen) {
        return client.decide(charge, seen);
    }

    @Override
    public void flush() {
        client.flush();
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
