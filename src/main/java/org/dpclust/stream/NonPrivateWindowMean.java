package org.dpclust.stream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.dpclust.io.OutboundRecord;

/**
 * The baseline of the end-to-end benchmark ({@code pipeline-nonprivate}): the exact per-window mean
 * of a stream's records, no privacy at all. Never part of the job — it exists so the cost of the
 * private summaries can be stated as a ratio on the same pipeline. Accumulator: {@code double[d +
 * 1]} (sums, then the count), a primitive array with Flink's own serializer.
 */
public final class NonPrivateWindowMean
        implements AggregateFunction<ValidRecord, double[], double[]> {
    private final int dimension;

    public NonPrivateWindowMean(int dimension) {
        this.dimension = dimension;
    }

    @Override
    public double[] createAccumulator() {
        return new double[dimension + 1];
    }

    @Override
    public double[] add(ValidRecord r, double[] acc) {
        for (int j = 0; j < dimension; j++) {
            acc[j] += r.features[j];
        }
        acc[dimension]++;
        return acc;
    }

    @Override
    public double[] getResult(double[] acc) {
        return acc;
    }

    @Override
    public double[] merge(double[] a, double[] b) {
        for (int j = 0; j <= dimension; j++) {
            a[j] += b[j];
        }
        return a;
    }

    /**
     * Emits the window's mean as one outbound record: window start, count, then the d mean
     * coordinates.
     */
    public static final class Output
            extends ProcessWindowFunction<double[], OutboundRecord, String, TimeWindow> {
        private final String topic;

        public Output(String topic) {
            this.topic = topic;
        }

        @Override
        public void process(
                String streamId,
                Context ctx,
                Iterable<double[]> sums,
                Collector<OutboundRecord> out) {
            double[] acc = sums.iterator().next();
            int d = acc.length - 1;
            ByteBuffer b = ByteBuffer.allocate(16 + 8 * d);
            b.putLong(ctx.window().getStart()).putLong((long) acc[d]);
            for (int j = 0; j < d; j++) {
                b.putDouble(acc[j] / acc[d]);
            }
            out.collect(
                    new OutboundRecord(
                            topic, streamId.getBytes(StandardCharsets.UTF_8), b.array()));
        }
    }
}
