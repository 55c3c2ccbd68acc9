package org.dpclust.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.DpclustConfig;
import org.dpclust.io.BudgetTopicReader;
import org.dpclust.io.TopicAdmin;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.privacy.PrivacySecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dpclust stream}: runs the streaming job (also the {@code flink run} entry point). */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        description = "Run the streaming job: Kafka telemetry -> DP centroids per window -> Kafka.")
public final class StreamCommand implements Callable<Integer> {
    @Mixin ConfigOption config;

    @Mixin BootstrapServersOption kafka;

    @Mixin SecretFileOption secretFile;

    @Option(
            names = "--create-topics",
            description = "Create missing topics (budget topic compacted) before starting.")
    boolean createTopics;

    @Override
    public Integer call() throws Exception {
        DpclustConfig cfg = config.load(kafka);
        PrivacySecret secret = secretFile.resolve();
        if (createTopics) {
            TopicAdmin.ensureTopics(cfg.kafka(), 1);
        }
        Map<String, Map<String, Double>> ledger =
                BudgetTopicReader.read(
                        cfg.kafka().bootstrapServers(),
                        cfg.kafka().budgetTopic(),
                        StreamingJob.LEDGER_READ_TIMEOUT);
        StreamingJob.fromKafka(cfg, secret, ledger)
                .execute(StreamExecutionEnvironment.getExecutionEnvironment());
        return 0;
    }
}
