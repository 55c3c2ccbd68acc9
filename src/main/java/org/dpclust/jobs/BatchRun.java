package org.dpclust.jobs;

import java.util.Objects;
import java.util.UUID;
import org.dpclust.batch.BatchAlgorithm;
import org.dpclust.batch.BatchAlgorithms;
import org.dpclust.batch.BatchParams;
import org.dpclust.batch.KMedianUniverse;
import org.dpclust.batch.PublishPolicy;
import org.dpclust.config.DpclustConfig;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.config.SecretSource;
import org.dpclust.config.StreamSpec;
import org.dpclust.ledger.PrivacyLedger;

/**
 * What one batch job releases, validated at construction: a registered {@code dp} algorithm ({@link
 * PublishPolicy}, refused otherwise with one line naming {@code --output kafka}) over the records
 * of a stream declared in {@code config}, in a public interval, under a run id of its own (the
 * run's charge key on the stream's fenced ledger, {@link BatchJob#chargeKey()}). All references are
 * non-null.
 *
 * @param config the configuration (topics; the stream's declaration)
 * @param spec the stream, declared in {@code config}
 * @param algorithm registry name of the algorithm
 * @param params its public parameters
 * @param interval the public interval charged
 * @param secret where the TaskManager loads the privacy secret from (never the bytes)
 * @param runId this run's id (unique per invocation; it keys the run's charge and sink)
 */
public record BatchRun(
        DpclustConfig config,
        StreamSpec spec,
        String algorithm,
        BatchParams params,
        PrivacyLedger.Interval interval,
        SecretSource secret,
        String runId) {
    public BatchRun {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(secret, "secret");
        BatchAlgorithm a = BatchAlgorithms.get(algorithm);
        PublishPolicy.requirePublishable(a);
        if (config.stream(spec.id()).isEmpty()) {
            throw new IllegalArgumentException(
                    "--stream: stream '" + spec.id() + "' is not declared in the configuration");
        }
        if (spec.privacyUnit() == PrivacyUnit.DEVICE) {
            throw new IllegalArgumentException(
                    "--stream: stream '"
                            + spec.id()
                            + "' has device units; batch runs support record units only");
        }
        KMedianUniverse u = params.universe();
        if (u != null && u.kind() == KMedianUniverse.Kind.GRAPH) {
            throw new IllegalArgumentException(
                    "--input: a kafka input carries feature vectors; a graph universe "
                            + "(--metric graph) needs a CSV of node ids");
        }
        if (u != null && u.coordinates(0).length != spec.dimension()) {
            throw new IllegalArgumentException(
                    "--universe: its points have dimension "
                            + u.coordinates(0).length
                            + ", stream '"
                            + spec.id()
                            + "' declares "
                            + spec.dimension());
        }
        a.checkParams(params);
        if (runId == null || runId.isBlank() || runId.contains("|")) {
            throw new IllegalArgumentException("run id must be non-blank and free of '|'");
        }
    }

    /** A run with a fresh random run id. */
    public static BatchRun create(
            DpclustConfig config,
            StreamSpec spec,
            String algorithm,
            BatchParams params,
            PrivacyLedger.Interval interval,
            SecretSource secret) {
        return new BatchRun(
                config, spec, algorithm, params, interval, secret, UUID.randomUUID().toString());
    }

    /** The same run with another configuration (e.g. the batch job's Kafka settings). */
    public BatchRun withConfig(DpclustConfig c) {
        return new BatchRun(c, spec, algorithm, params, interval, secret, runId);
    }
}
