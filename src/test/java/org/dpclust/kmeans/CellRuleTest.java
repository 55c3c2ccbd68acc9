package org.dpclust.kmeans;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link CellRule}: few cells for a weak signal or low d, finer cells (up to a state bound) for a
 * strong one in high d.
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
    void highDimensionKeepsTheDefaultUntilTheSignalSupportsFinerCells() {
        assertEquals(64, CellRule.cells(3, 13, 1, 2000)); // x = 154 -> 51 < max(64, 16k)
        assertEquals(160, CellRule.cells(10, 10, 0.03, 100_000)); // x = 300 -> 100 < 160
        // a weak signal in high d still gets few cells
        assertEquals(3, CellRule.cells(3, 13, 1, 150));
    }

    @Test
    void aStrongSignalInHighDimensionGetsFinerCellsUpToTheStateBound() {
        assertEquals(333, CellRule.cells(10, 10, 0.1, 100_000)); // x = 1000 -> round(333.3)
        assertEquals(3333, CellRule.cells(10, 10, 1, 100_000)); // x = 10^4
        assertEquals(65536 / 11, CellRule.maxCells(10));
        assertEquals(5957, CellRule.cells(10, 10, 3, 100_000)); // x / 3 = 10^4 > the cap
        assertEquals(65536 / 21, CellRule.cells(3, 20, 3, 10_000_000)); // state bounded
        // the cap never goes below the default: 65536 / 785 = 83 < 160
        assertEquals(160, CellRule.cells(10, 784, 3, 10_000_000));
    }
}
