package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link CellRule}: few cells for a weak signal or low d, the default for a strong one in high d.
 */
class CellRuleTest {
    @Test
    void cellsFollowTheSignalInLowDimensionAndAreClamped() {
        assertEquals(3, CellRule.cells(3, 4, 0.1, 150)); // x = 3.75 -> at least k
        assertEquals(6, CellRule.cells(3, 4, 1, 150)); // x = 37.5 -> round(1.5) = 2
        assertEquals(48, CellRule.cells(3, 2, 3, 100_000)); // clamped at 16 k
        assertEquals(3, CellRule.cells(3, 4, 1, -20)); // a negative noisy count is 0
    }

    @Test
    void highDimensionWithAStrongSignalKeepsTheDefault() {
        assertEquals(64, CellRule.cells(3, 13, 1, 2000));
        assertEquals(160, CellRule.cells(10, 10, 1, 100_000));
        // a weak signal in high d still gets few cells
        assertEquals(3, CellRule.cells(3, 13, 1, 150));
    }
}
