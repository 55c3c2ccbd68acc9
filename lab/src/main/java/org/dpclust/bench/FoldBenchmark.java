package org.dpclust.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.bench.jmh.JmhRunner;
import org.dpclust.bench.jmh.PhaseOneJmh;

/**
 * {@code phase1-fold}: the per-record cost of phase 1's fold over an interleaved input of 10
 * streams with all three summaries (JMH, {@link PhaseOneJmh}): held and folded 128 records of a
 * stream at a time, as the stream job does ({@code ns_per_record}), beside folding each record as
 * it comes ({@code one_by_one_ns_per_record}) and their ratio ({@code speedup}), measured in the
 * same run.
 */
public final class FoldBenchmark implements Benchmark {
    @Override
    public String name() {
        return "fold";
    }

    @Override
    public String description() {
        return "phase-1 fold of 10 interleaved streams, all three summaries: batched vs one by one";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        System.err.println("bench fold: JMH phase1-fold, batched and one by one");
        List<JmhRunner.Score> scores = JmhRunner.run(PhaseOneJmh.class, quick);
        double batched = JmhRunner.find(scores, "batched", null, null).nsPerOp();
        double single = JmhRunner.find(scores, "perRecord", null, null).nsPerOp();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("benchmark", "phase1-fold");
        row.put("streams", PhaseOneJmh.STREAMS);
        row.put("d", PhaseOneJmh.D);
        row.put("m", PhaseOneJmh.M);
        row.put("r", PhaseOneJmh.R);
        row.put("universe", PhaseOneJmh.UNIVERSE);
        row.put("snap", PhaseOneJmh.SNAP);
        row.put("batch", PhaseOneJmh.B);
        row.put("ns_per_record", BoundRows.round(batched));
        row.put("one_by_one_ns_per_record", BoundRows.round(single));
        row.put("speedup", BoundRows.round(single / batched));
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(BenchEnvironment.withMachine(row));
        return rows;
    }
}
