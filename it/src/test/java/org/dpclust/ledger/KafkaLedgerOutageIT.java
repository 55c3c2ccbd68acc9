package org.dpclust.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.devkit.EmbeddedKafka;
import org.junit.jupiter.api.Test;

/**
 * A budget topic that becomes unavailable (its only broker stops) under a running ledger writer:
 * the next charge retries for the charge timeout and then throws {@link
 * LedgerUnavailableException}; it never returns a decision that is not committed. Its own broker,
 * since it stops it.
 */
class KafkaLedgerOutageIT {
    private static LedgerCharge window(String summary) {
        return new LedgerCharge(
                "fleet",
                LedgerCharge.Source.STREAM,
                summary,
                new PrivacyLedger.Interval(0, 60_000),
                "",
                0.1,
                1.0,
                86_400_000L,
                PrivacyUnit.RECORD);
    }

    @Test
    void aChargeAgainstAnUnavailableBudgetTopicThrowsWithinItsTimeout() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        String topic = "budget-outage";
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(
                            List.of(
                                    new NewTopic(topic, 1, (short) 1)
                                            .configs(
                                                    Map.of(
                                                            TopicConfig.CLEANUP_POLICY_CONFIG,
                                                            TopicConfig.CLEANUP_POLICY_COMPACT))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Duration timeout = Duration.ofSeconds(8);
        LedgerSettings s =
                new LedgerSettings(
                        kafka.bootstrapServers(),
                        topic,
                        "outage-ledger",
                        timeout,
                        Duration.ofSeconds(4));
        try (KafkaLedgerClient c = KafkaLedgerClient.open(s)) {
            LedgerDecision first = c.charge(window("stats"), LedgerMark.NONE);
            assertTrue(first.accepted());
            kafka.close();
            long started = System.nanoTime();
            LedgerUnavailableException e =
                    assertThrows(
                            LedgerUnavailableException.class,
                            () -> c.charge(window("ckm"), first.mark()));
            double seconds = (System.nanoTime() - started) / 1e9;
            System.err.printf("charge gave up after %.1f s (timeout %s)%n", seconds, timeout);
            assertTrue(
                    e.getMessage().startsWith("budget topic 'budget-outage' on "), e.getMessage());
            assertTrue(seconds >= timeout.toSeconds(), "gave up early: " + seconds + " s");
            // the charge timeout plus at most a few calls of a quarter of it (2 s each)
            assertTrue(seconds < timeout.toSeconds() + 12, "gave up late: " + seconds + " s");
            assertEquals(1, first.mark().seq());
        }
    }
}
