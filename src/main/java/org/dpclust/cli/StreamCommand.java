package org.dpclust.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.io.BudgetTopicReader;
import org.dpclust.io.KafkaLedgerClient;
import org.dpclust.io.LedgerSettings;
import org.dpclust.io.TopicAdmin;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.privacy.PrivacySecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpclust stream}: runs the streaming job (also the {@code flink run} entry point). */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        description = "Run the streaming job: Kafka telemetry -> DP centroids per window -> Kafka.")
public final class StreamCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(StreamCommand.class);

    @Option(
            names = "--config",
            required = true,
            description = "dpclust YAML configuration (see README).")
    Path config;

    @Option(names = "--bootstrap-servers", description = "Overrides kafka.bootstrap_servers.")
    String bootstrapServers;

    @Option(
            names = "--secret-file",
            description = "File with the hex HMAC secret (default: env DPCLUST_SECRET).")
    Path secretFile;

    @Option(
            names = "--create-topics",
            description = "Create missing topics (budget topic compacted) before starting.")
    boolean createTopics;

    @Override
    public Integer call() throws Exception {
        DpclustConfig cfg = ConfigLoader.load(config);
        if (bootstrapServers != null) {
            cfg = cfg.withKafka(cfg.kafka().withBootstrapServers(bootstrapServers));
        }
        PrivacySecret secret = SecretSource.resolve(secretFile);
        BrokerCheck.requireReachable(
                bootstrapServers != null ? "--bootstrap-servers" : "kafka.bootstrap_servers",
                cfg.kafka().bootstrapServers());
        StartupLog.configuration(
                LOG, cfg, secretFile != null ? "--secret-file " + secretFile : SecretSource.ENV);
        if (createTopics) {
            TopicAdmin.ensureTopics(cfg.kafka(), 1);
        }
        // the budget topic must be compacted and hold every stream's ledger history intact
        try (KafkaLedgerClient ledgerCheck = LedgerSettings.of(cfg.kafka()).open()) {
            cfg.streams().forEach(s -> ledgerCheck.verify(s.id()));
        }
        Map<String, Map<String, Double>> ledger =
                BudgetTopicReader.read(
                        cfg.kafka().bootstrapServers(),
                        cfg.kafka().budgetTopic(),
                        StreamingJob.LEDGER_READ_TIMEOUT);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StartupLog.flinkWebUi(LOG, env.getConfiguration());
        StreamingJob.fromKafka(cfg, secret, ledger).execute(env);
        return 0;
    }
}
