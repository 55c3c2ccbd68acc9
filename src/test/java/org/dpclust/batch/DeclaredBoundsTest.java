package org.dpclust.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpclust.geometry.DomainBounds;
import org.junit.jupiter.api.Test;

class DeclaredBoundsTest {
    @Test
    void parsesLowerAndUpperBounds() {
        DomainBounds b = DeclaredBounds.parse(" 0, -1.5 ; 10,2e3");
        assertArrayEquals(new double[] {0, -1.5}, b.lowerCopy(), 0.0);
        assertEquals(10, b.upper(0), 0.0);
        assertEquals(2000, b.upper(1), 0.0);
    }

    @Test
    void everyMalformedTextIsAnErrorNamingTheOption() {
        for (String bad :
                new String[] {
                    "0,0", "0,0;1", "0,x;1,1", "0,NaN;1,1", "0,0;1,Infinity", "1;0", ""
                }) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class, () -> DeclaredBounds.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--bounds: "), e.getMessage());
        }
    }
}
