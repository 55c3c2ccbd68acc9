package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BudgetSplitTest {
    private static BigDecimal exact(double... xs) {
        BigDecimal s = BigDecimal.ZERO;
        for (double x : xs) {
            s = s.add(new BigDecimal(x));
        }
        return s;
    }

    @Test
    void theExactSumOfThePartsAndTheRemainderNeverExceedsTheTotal() {
        SplittableRandom random = new SplittableRandom(19);
        int plainSubtractionOverspent = 0;
        for (int i = 0; i < 100_000; i++) {
            double total = Math.exp(random.nextDouble(-12, 3));
            double part = total * random.nextDouble(0.001, 0.999);
            double r = BudgetSplit.remainder(total, part);
            assertTrue(exact(part, r).compareTo(new BigDecimal(total)) <= 0, total + " " + part);
            // r is the largest such double: one ulp more overspends
            assertTrue(exact(part, Math.nextUp(r)).compareTo(new BigDecimal(total)) > 0);
            if (exact(part, total - part).compareTo(new BigDecimal(total)) > 0) {
                plainSubtractionOverspent++;
            }
        }
        // the case this class exists for does occur with plain subtraction
        assertTrue(plainSubtractionOverspent > 0, "plain subtraction never overspent");
    }

    @Test
    void severalParts() {
        double total = 1.0;
        double a = 0.1;
        double b = 0.2;
        double r = BudgetSplit.remainder(total, a, b);
        assertTrue(exact(a, b, r).compareTo(BigDecimal.ONE) <= 0);
        assertEquals(0.7, r, 1e-15);
    }

    @Test
    void refusesPartsThatLeaveNothing() {
        assertThrows(IllegalArgumentException.class, () -> BudgetSplit.remainder(1.0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> BudgetSplit.remainder(1.0, 0.6, 0.5));
        assertThrows(IllegalArgumentException.class, () -> BudgetSplit.remainder(-1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> BudgetSplit.remainder(1, 0.0));
    }

    @Test
    void equalSharesNeverAddUpToMoreThanTheTotal() {
        SplittableRandom random = new SplittableRandom(23);
        for (int i = 0; i < 20_000; i++) {
            double total = Math.exp(random.nextDouble(-12, 3));
            int n = 1 + random.nextInt(12);
            double x = BudgetSplit.equalShare(total, n);
            BigDecimal times = BigDecimal.valueOf(n);
            assertTrue(new BigDecimal(x).multiply(times).compareTo(new BigDecimal(total)) <= 0);
            assertTrue(
                    new BigDecimal(Math.nextUp(x)).multiply(times).compareTo(new BigDecimal(total))
                            > 0);
        }
    }
}
