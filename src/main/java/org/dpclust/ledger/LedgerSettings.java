package org.dpclust.ledger;

import java.time.Duration;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.KafkaSettings;

/**
 * Where and how the fenced ledger writes (public, serializable so a Flink function can carry it and
 * open its {@link KafkaLedgerClient} on the TaskManager).
 *
 * @param kafka the bootstrap servers and the user's client properties (security, SASL, TLS)
 * @param transactionalIdPrefix the writer of budget-topic partition k uses transactional id {@code
 *     prefix-pk}; every writer of the topic (stream job, batch runs) must use the same prefix, or
 *     they do not fence each other. The default, {@link #defaultPrefix}, names the budget topic:
 *     the writers of one ledger (topic, stream) fence each other, and deployments with budget
 *     topics of their own on one Kafka cluster never do
 * @param chargeTimeout how long one charge may retry (broker, coordinator or topic unavailable)
 *     before it throws {@link LedgerUnavailableException}
 * @param transactionTimeout the ledger producer's {@code transaction.timeout.ms}: how long a
 *     crashed writer's open charge transaction can hold back readers of its partition; below {@code
 *     chargeTimeout}, so a charge outlives a crashed peer's transaction
 */
public record LedgerSettings(
        KafkaConnection kafka,
        String topic,
        String transactionalIdPrefix,
        Duration chargeTimeout,
        Duration transactionTimeout)
        implements LedgerClientFactory {
    /** The start of every default ledger transactional id (an ACL can grant this prefix). */
    public static final String DEFAULT_PREFIX = "dpclust-ledger";

    /**
     * The default prefix of the ledger on budget topic {@code topic}: {@code dpclust-ledger-TOPIC}.
     */
    public static String defaultPrefix(String topic) {
        return DEFAULT_PREFIX + "-" + topic;
    }

    public static final Duration DEFAULT_CHARGE_TIMEOUT = Duration.ofMinutes(2);
    public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(1);

    /** Settings on a PLAINTEXT broker without client properties (the in-process one). */
    public LedgerSettings(
            String bootstrapServers,
            String topic,
            String transactionalIdPrefix,
            Duration chargeTimeout,
            Duration transactionTimeout) {
        this(
                KafkaConnection.plaintext(bootstrapServers),
                topic,
                transactionalIdPrefix,
                chargeTimeout,
                transactionTimeout);
    }

    public LedgerSettings {
        if (transactionalIdPrefix == null || transactionalIdPrefix.isBlank()) {
            throw new IllegalArgumentException("ledger transactional id prefix must be non-blank");
        }
        if (chargeTimeout.compareTo(transactionTimeout) <= 0) {
            throw new IllegalArgumentException(
                    "ledger charge timeout must be longer than its transaction timeout");
        }
    }

    /** The defaults for the budget topic of {@code k}. */
    public static LedgerSettings of(KafkaSettings k) {
        return new LedgerSettings(
                k.connection(),
                k.budgetTopic(),
                defaultPrefix(k.budgetTopic()),
                DEFAULT_CHARGE_TIMEOUT,
                DEFAULT_TRANSACTION_TIMEOUT);
    }

    public LedgerSettings withTimeouts(Duration charge, Duration transaction) {
        return new LedgerSettings(kafka, topic, transactionalIdPrefix, charge, transaction);
    }

    public LedgerSettings withTransactionalIdPrefix(String prefix) {
        return new LedgerSettings(kafka, topic, prefix, chargeTimeout, transactionTimeout);
    }

    /**
     * A handle on this JVM's Kafka ledger client for these settings ({@link SharedLedgerClient}),
     * opened by the first handle ({@link KafkaLedgerClient#open}).
     */
    @Override
    public SharedLedgerClient open() {
        return SharedLedgerClient.acquire(this);
    }

    /** The bootstrap servers (for messages). */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The transactional id of the writer of budget-topic partition {@code partition}. */
    public String transactionalId(int partition) {
        return transactionalIdPrefix + "-p" + partition;
    }
}
