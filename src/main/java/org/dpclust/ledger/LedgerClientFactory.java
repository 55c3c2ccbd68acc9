package org.dpclust.ledger;

import java.io.Serializable;

/**
 * Opens a {@link LedgerClient} where it is used: a Flink function carries the (serializable)
 * factory and opens its client in {@code open()} on the TaskManager. {@link LedgerSettings} is the
 * factory of the Kafka ledger.
 */
@FunctionalInterface
public interface LedgerClientFactory extends Serializable {
    LedgerClient open();
}
