package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The L2 sensitivities of the stats release, checked by brute force: every way a device's c records
 * can be spread over m cells, each record at any corner of the centred box [-2^31, 2^31]^d.
 */
class DpClusterStatisticsL2Test {
    private static final long H = 1L << 31;

    /** Max over allocations of c records to m cells (and corners) of the squared L2 change. */
    private static BigInteger[] bruteForce(int c, int m, int d) {
        BigInteger bestCount = BigInteger.ZERO;
        BigInteger bestSum = BigInteger.ZERO;
        int corners = 1 << d;
        long combos = (long) Math.pow((double) m * corners, c);
        for (long code = 0; code < combos; code++) {
            long[] counts = new long[m];
            BigInteger[][] sums = new BigInteger[m][d];
            for (BigInteger[] row : sums) {
                java.util.Arrays.fill(row, BigInteger.ZERO);
            }
            long x = code;
            for (int rec = 0; rec < c; rec++) {
                int cell = (int) (x % m);
                x /= m;
                int corner = (int) (x % corners);
                x /= corners;
                counts[cell]++;
                for (int j = 0; j < d; j++) {
                    long v = ((corner >> j) & 1) == 1 ? H : -H;
                    sums[cell][j] = sums[cell][j].add(BigInteger.valueOf(v));
                }
            }
            BigInteger cs = BigInteger.ZERO;
            BigInteger ss = BigInteger.ZERO;
            for (int i = 0; i < m; i++) {
                cs = cs.add(BigInteger.valueOf(counts[i]).pow(2));
                for (int j = 0; j < d; j++) {
                    ss = ss.add(sums[i][j].pow(2));
                }
            }
            bestCount = bestCount.max(cs);
            bestSum = bestSum.max(ss);
        }
        return new BigInteger[] {bestCount, bestSum};
    }

    @Test
    void matchesTheWorstCaseOverAllAllocations() {
        int[][] cases = {{1, 3, 2}, {2, 3, 2}, {3, 2, 3}, {4, 3, 1}};
        for (int[] cmd : cases) {
            BigInteger[] worst = bruteForce(cmd[0], cmd[1], cmd[2]);
            assertEquals(worst[0], DpClusterStatistics.countL2SensitivitySquared(cmd[0]));
            assertEquals(worst[1], DpClusterStatistics.sumL2SensitivitySquared(cmd[2], cmd[0]));
        }
    }

    @Test
    void closedFormAndArguments() {
        // c = 5, d = 10: 25 * 10 * 2^62 does not fit a long
        assertEquals(
                BigInteger.valueOf(250).shiftLeft(62),
                DpClusterStatistics.sumL2SensitivitySquared(10, 5));
        assertThrows(
                IllegalArgumentException.class,
                () -> DpClusterStatistics.countL2SensitivitySquared(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> DpClusterStatistics.sumL2SensitivitySquared(0, 1));
    }
}
