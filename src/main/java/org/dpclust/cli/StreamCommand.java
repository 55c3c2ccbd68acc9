package org.dpclust.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.config.ConfigLoader;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.SecretSource;
import org.dpclust.io.BudgetTopicReader;
import org.dpclust.io.TopicAdmin;
import org.dpclust.jobs.StreamingJob;
import org.dpclust.privacy.PrivacySecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpclust stream}: runs the streaming job (also the {@code flink run} entry point). */
@Command(
        name = "stream",
        mixinStandardHelpOptions = true,
        description = "Run the streaming job: Kafka telemetry -> DP centroids per window -> Kafka.")
public final class StreamCommand implements Callable<Integer> {
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
            names = "--start",
            description =
                    "Overrides job.start: the public instant the release schedule starts at"
                            + " (ISO-8601, e.g. 2026-12-01T00:00:00Z).")
    java.time.Instant start;

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
        if (start != null) {
            cfg = cfg.withJob(cfg.job().withSchedule(start, cfg.job().end()));
            if (cfg.job().end() != null && !cfg.job().end().isAfter(start)) {
                throw new org.dpclust.config.ConfigException(
                        "job.end", "must be after --start (" + start + ")");
            }
        }
        cfg.job().requireStreamingSchedule();
        if (createTopics) {
            TopicAdmin.ensureTopics(cfg.kafka(), 1);
        }
        TopicAdmin.requireLogAppendTime(cfg.kafka());
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
