package org.dpclust.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.flink.api.common.JobID;

/**
 * A running job's checkpoint statistics as Flink's REST API reports them ({@code GET
 * /jobs/:jobid/checkpoints} on the cluster's REST port): the number of completed checkpoints, the
 * latest completed checkpoint's {@code state_size} in bytes, and the mean {@code
 * end_to_end_duration} (trigger to last acknowledgement, in ms) of the completed checkpoints in the
 * endpoint's history (the last few, {@code web.checkpoints.history}, 10 by default). All zero
 * before the first checkpoint completes.
 */
record CheckpointStats(long completed, long stateSizeBytes, double durationMillis) {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the statistics of {@code job} from the REST endpoint on {@code 127.0.0.1:port}. */
    static CheckpointStats fetch(int port, JobID job) throws IOException {
        HttpRequest get =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://127.0.0.1:"
                                                + port
                                                + "/jobs/"
                                                + job
                                                + "/checkpoints"))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        try {
            HttpResponse<String> r = HTTP.send(get, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("checkpoint statistics: HTTP " + r.statusCode());
            }
            return parse(JSON.readTree(r.body()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading checkpoint statistics", e);
        }
    }

    /** The figures from the endpoint's JSON body. */
    static CheckpointStats parse(JsonNode body) {
        long completed = body.path("counts").path("completed").asLong(0);
        JsonNode latest = body.path("latest").path("completed");
        long size = latest.path("state_size").asLong(0);
        double sum = 0;
        int n = 0;
        for (JsonNode c : body.path("history")) {
            if ("COMPLETED".equals(c.path("status").asText())) {
                sum += c.path("end_to_end_duration").asLong();
                n++;
            }
        }
        double duration = n > 0 ? sum / n : latest.path("end_to_end_duration").asDouble(0);
        return new CheckpointStats(completed, size, duration);
    }
}
