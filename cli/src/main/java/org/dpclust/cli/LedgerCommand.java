package org.dpclust.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dpclust.config.KafkaConnection;
import org.dpclust.config.KafkaSettings;
import org.dpclust.launch.BootstrapServersOption;
import org.dpclust.launch.BrokerCheck;
import org.dpclust.ledger.KafkaLedgerClient;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.LedgerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpclust ledger verify|adopt}: checks a stream's ledger on the budget topic, or adopts a
 * restored budget topic (docs/operations.md, "Restoring the budget topic"). Both go through the
 * stream's fenced writer ({@link KafkaLedgerClient}); a missing or incomplete history fails with
 * one line (exit 2).
 */
@Command(
        name = "ledger",
        mixinStandardHelpOptions = true,
        description = {
            "verify: read each stream's ledger on the budget topic and check that no history is"
                    + " missing; prints the high-water mark.",
            "adopt: after restoring the budget topic from a backup into a new topic, record that it"
                    + " holds the old topic's history (the charges 1..h must all be there)."
        })
public final class LedgerCommand implements Callable<Integer> {
    enum Action {
        verify,
        adopt
    }

    @Parameters(index = "0", description = "verify | adopt")
    Action action;

    @Mixin BootstrapServersOption kafka;

    @Option(names = "--stream", required = true, split = ",", description = "Stream id(s).")
    List<String> streams;

    @Option(
            names = "--topic",
            defaultValue = KafkaSettings.DEFAULT_BUDGET,
            description = "Budget topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(
            names = "--transactional-id-prefix",
            description =
                    "The ledger writers' transactional-id prefix (default dpclust-ledger-TOPIC, as"
                            + " the stream job and batch runs use).")
    String prefix;

    @Override
    public Integer call() {
        KafkaConnection connection = kafka.connection();
        BrokerCheck.require("--bootstrap-servers", connection, kafka.propertiesOptionName());
        LedgerSettings s =
                new LedgerSettings(
                        connection,
                        topic,
                        prefix != null ? prefix : LedgerSettings.defaultPrefix(topic),
                        LedgerSettings.DEFAULT_CHARGE_TIMEOUT,
                        LedgerSettings.DEFAULT_TRANSACTION_TIMEOUT);
        try (KafkaLedgerClient c = KafkaLedgerClient.open(s)) {
            for (String stream : streams) {
                LedgerMark m = action == Action.adopt ? c.adopt(stream) : c.verify(stream);
                System.out.printf(
                        Locale.ROOT,
                        "%s %s: stream %s, topic id %s, high-water mark %d%n",
                        action == Action.adopt ? "adopted" : "verified",
                        topic,
                        stream,
                        m.topicId(),
                        m.seq());
            }
        }
        return 0;
    }
}
