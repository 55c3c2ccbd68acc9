package org.dpclust.stream;

import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.dpclust.io.Publication;
import org.dpclust.window.ValidRecord;

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
     * Emits the window's mean ({@link Publication.WindowMean}: window start, count, the d mean
     * coordinates).
     */
    public static final class Output
            extends ProcessWindowFunction<double[], Publication, String, TimeWindow> {
        @Override
        public void process(
                String streamId, Context ctx, Iterable<double[]> sums, Collector<Publication> out) {
            double[] acc = sums.iterator().next();
            int d = acc.length - 1;
            double[] mean = new double[d];
            for (int j = 0; j < d; j++) {
                mean[j] = acc[j] / acc[d];
            }
            out.collect(
                    new Publication.WindowMean(
                            streamId, ctx.window().getStart(), (long) acc[d], mean));
        }
    }
}
