package org.dpclust.batch;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.PrivacySecret;

/**
 * An offline file run: the algorithm over a {@link FileSnapshot} through {@link SnapshotRelease}
 * with no stream and no ledger (nothing is charged, and the summary says so), written to an {@link
 * OutputDirectory}. Offline evaluation only: its output never reaches a stream's topics.
 *
 * @param algorithm the algorithm (any guarantee)
 * @param params its public parameters
 * @param input the input file, for the summary
 * @param output where {@code centroids.csv} and {@code summary.json} go
 */
public record FileRun(
        BatchAlgorithm algorithm, BatchParams params, Path input, OutputDirectory output) {

    /**
     * Runs, writes both files and returns the summary written.
     *
     * @param secret the privacy secret (private algorithms), or null
     */
    public Map<String, Object> execute(FileSnapshot snapshot, PrivacySecret secret) {
        SnapshotRelease.Outcome o =
                SnapshotRelease.run(
                        algorithm,
                        params,
                        snapshot.points(),
                        snapshot.name(),
                        new PrivacyLedger.Interval(0, 1),
                        null,
                        secret);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("algorithm", algorithm.name());
        summary.put("guarantee", algorithm.guarantee().wireName());
        summary.put("input", input.toString());
        summary.put("records", snapshot.points().length);
        summary.put("dimension", snapshot.dimension());
        summary.put("k", params.k());
        summary.put("epsilon", algorithm.isPrivate() ? params.epsilon() : null);
        summary.put("seed", params.seed());
        summary.put("ledger", "not charged (offline file run, no stream ledger)");
        summary.put("parameters", o.result().parameters());
        summary.put("centroids_file", output.centroidsFile().toString());
        output.write(o.result().centroids(), summary);
        return summary;
    }
}
