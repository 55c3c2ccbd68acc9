package org.dpclust.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpclust.config.BudgetAccounting;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.ledger.LedgerCharge;
import org.dpclust.ledger.LedgerHistory;
import org.dpclust.ledger.LedgerMark;
import org.dpclust.ledger.PrivacyLedger;
import org.dpclust.privacy.Accounting;
import org.openjdk.jol.info.GraphLayout;

/**
 * {@code ledger-year}: a year of one stream's ledger, time compressed: 10-s windows, three
 * summaries charged per window (3.15 M windows, 9.46 M decisions), one-day budget periods, record
 * units, with and without a lifetime cap, every decision taken and read back through {@link
 * LedgerHistory} exactly as the fenced writer does (decide, check, fold the record and the marker;
 * no broker). Rows at day 1, 30 and 365: {@code charge_ns} (the median of five blocks' means over
 * the day's last 15,000 charges), {@code ratio_to_day1}, {@code retained_bytes} (the history's
 * object graph, measured by OpenJDK's JOL: exact, where {@code heap_bytes} — heap after GC with the
 * history alive, minus before it — moves by a few KB with the collector) and {@code decisions}.
 * Quick mode: days 1, 2 and 3 of 60-s windows.
 */
public final class LedgerYearBenchmark implements Benchmark {
    private static final String TOPIC_ID = "bench-topic";

    /** Blocks of 1,000 windows timed at the end of each reported day. */
    private static final int BLOCKS = 5;

    @Override
    public String name() {
        return "ledger-year";
    }

    @Override
    public String description() {
        return "A year of one stream's ledger (3.15 M windows, 9.46 M decisions): cost per charge and heap at day 1, 30, 365.";
    }

    @Override
    public List<Map<String, Object>> run(boolean quick) {
        long window = quick ? 60_000L : 10_000L;
        int[] days = quick ? new int[] {1, 2, 3} : new int[] {1, 30, 365};
        List<Map<String, Object>> rows = new ArrayList<>();
        year(window, new int[] {1}, false); // JIT warm-up, not reported
        for (boolean lifetime : new boolean[] {false, true}) {
            rows.addAll(year(window, days, lifetime));
        }
        return rows;
    }

    private List<Map<String, Object>> year(long window, int[] days, boolean lifetime) {
        long day = 86_400_000L;
        long perDay = day / window;
        BudgetAccounting accounting =
                lifetime
                        ? new BudgetAccounting(Accounting.PURE, Double.NaN, 1e9)
                        : BudgetAccounting.PURE;
        long base = heapAfterGc();
        LedgerHistory h = new LedgerHistory("s");
        List<Map<String, Object>> rows = new ArrayList<>();
        double day1 = Double.NaN;
        String[] summaries = {"stats", "ckm", "dp-hst"};
        long w = 0;
        for (int d : days) {
            long last = d * perDay;
            // the day's last windows in blocks; the median block (a GC pause or a JIT
            // recompilation in one block moves a mean over them all by tens of percent)
            long block = Math.min(1_000, perDay / BLOCKS);
            long timed = block * BLOCKS;
            double[] blockNs = new double[BLOCKS];
            long startNs = 0;
            for (; w < last; w++) {
                if (w >= last - timed && (w - (last - timed)) % block == 0) {
                    if (w > last - timed) {
                        blockNs[(int) ((w - (last - timed)) / block) - 1] =
                                System.nanoTime() - startNs;
                    }
                    startNs = System.nanoTime();
                }
                PrivacyLedger.Interval i = new PrivacyLedger.Interval(w * window, (w + 1) * window);
                for (String summary : summaries) {
                    LedgerCharge c =
                            new LedgerCharge(
                                            "s",
                                            LedgerCharge.Source.STREAM,
                                            summary,
                                            i,
                                            "",
                                            0.1,
                                            1.0,
                                            day,
                                            PrivacyUnit.RECORD)
                                    .withAccounting(accounting);
                    h.check("budget", TOPIC_ID, new LedgerMark(TOPIC_ID, h.highWater()));
                    LedgerHistory.Pending p = h.decide(c, TOPIC_ID, k -> null);
                    if (!p.decision().accepted()) {
                        throw new IllegalStateException("refused: " + p.decision().status());
                    }
                    h.add(p.decision().status());
                    h.add(p.marker());
                }
                if (w % perDay == 0 && w > 0 && (w / perDay) % 30 == 0) {
                    System.err.printf(
                            "ledger-year: lifetime cap %s, day %d%n", lifetime, w / perDay);
                }
            }
            blockNs[BLOCKS - 1] = System.nanoTime() - startNs;
            java.util.Arrays.sort(blockNs);
            double ns = blockNs[BLOCKS / 2] / (block * summaries.length);
            if (Double.isNaN(day1)) {
                day1 = ns;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", name());
            row.put("lifetime_cap", lifetime);
            row.put("day", d);
            row.put("decisions", h.decisions());
            row.put("charge_ns", Math.round(ns));
            row.put("ratio_to_day1", Math.round(ns / day1 * 100) / 100.0);
            row.put("retained_bytes", retainedBytes(h));
            row.put("heap_bytes", Math.max(0, heapAfterGc() - base));
            rows.add(BenchEnvironment.withMachine(row));
            System.err.printf(
                    "ledger-year: lifetime cap %s, day %d: %.0f ns per charge, %d decisions%n",
                    lifetime, d, ns, h.decisions());
        }
        if (h.highWater() == 0) {
            throw new IllegalStateException("nothing charged");
        }
        return rows;
    }

    /**
     * The size of {@code o}'s object graph. JOL prints its start-up warnings (no instrumentation
     * agent) on standard output, where the bench's rows go: they go to standard error instead.
     */
    private static long retainedBytes(Object o) {
        java.io.PrintStream out = System.out;
        System.setOut(System.err);
        try {
            return GraphLayout.parseInstance(o).totalSize();
        } finally {
            System.setOut(out);
        }
    }

    private static long heapAfterGc() {
        Runtime r = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return r.totalMemory() - r.freeMemory();
    }
}
