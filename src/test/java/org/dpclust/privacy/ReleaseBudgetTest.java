package org.dpclust.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReleaseBudgetTest {

    @Test
    void eachKindIsValidatedAndNamesItsAccounting() {
        for (double bad :
                new double[] {
                    0, -1, Double.NaN, Double.POSITIVE_INFINITY, -0.0, -Double.MIN_VALUE
                }) {
            assertThrows(IllegalArgumentException.class, () -> new ReleaseBudget.Pure(bad));
            assertThrows(IllegalArgumentException.class, () -> new ReleaseBudget.Zcdp(bad));
        }
        assertEquals(Accounting.PURE, new ReleaseBudget.Pure(0.5).accounting());
        assertEquals(Accounting.ZCDP, new ReleaseBudget.Zcdp(0.5).accounting());
        assertEquals(Double.MIN_VALUE, ReleaseBudget.requireEpsilon(Double.MIN_VALUE));
        assertEquals(Double.MAX_VALUE, ReleaseBudget.requireRho(Double.MAX_VALUE));
    }

    @Test
    void matchAppliesTheBranchOfItsOwnKindToItsOwnAmount() {
        ReleaseBudget pure = new ReleaseBudget.Pure(0.25);
        ReleaseBudget zcdp = new ReleaseBudget.Zcdp(0.125);
        assertEquals("pure 0.25", pure.match(e -> "pure " + e, r -> "zcdp " + r));
        assertEquals("zcdp 0.125", zcdp.match(e -> "pure " + e, r -> "zcdp " + r));
    }
}
