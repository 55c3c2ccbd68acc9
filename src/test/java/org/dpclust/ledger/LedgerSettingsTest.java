package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import org.dpclust.config.KafkaSettings;
import org.junit.jupiter.api.Test;

/**
 * The writers of one ledger (budget topic, stream) share a transactional id, so they fence each
 * other; two deployments with budget topics of their own on one Kafka cluster do not.
 */
class LedgerSettingsTest {
    private static KafkaSettings kafka(String budgetTopic) {
        return new KafkaSettings(
                "b:9092",
                "in",
                "c",
                "s",
                budgetTopic,
                "dlq",
                "g",
                "sink",
                Duration.ofMinutes(1),
                "committed");
    }

    @Test
    void theLedgerIdNamesItsBudgetTopicAndPartition() {
        LedgerSettings a = LedgerSettings.of(kafka("team-a.budget"));
        assertEquals("dpclust-ledger-team-a.budget-p1", a.transactionalId(1));
        assertEquals(
                a.transactionalId(1),
                LedgerSettings.of(kafka("team-a.budget")).transactionalId(1),
                "every writer of one ledger fences the others");
        assertNotEquals(
                a.transactionalId(1),
                LedgerSettings.of(kafka("team-b.budget")).transactionalId(1),
                "another deployment's ledger is never fenced by this one");
        assertEquals("custom-p1", a.withTransactionalIdPrefix("custom").transactionalId(1));
    }
}
