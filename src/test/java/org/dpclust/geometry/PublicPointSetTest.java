package org.dpclust.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PublicPointSetTest {
    private static double[] rows(PublicPointSet s) {
        double[] r = new double[s.size() * s.dimension()];
        for (int p = 0; p < s.size(); p++) {
            System.arraycopy(s.point(p), 0, r, p * s.dimension(), s.dimension());
        }
        return r;
    }

    private static void assertNearestAsPlainSearch(PublicPointSet s, long seed) {
        double[] rows = rows(s);
        SplittableRandom r = new SplittableRandom(seed);
        for (int q = 0; q < 2000; q++) {
            double[] x = new double[s.dimension()];
            for (int t = 0; t < x.length; t++) {
                x[t] = r.nextDouble(-0.5, 1.5);
            }
            assertEquals(NearestPoint.of(rows, s.dimension(), x), s.nearest(x));
        }
    }

    @Test
    void nearestIsThePlainSearchForSmallAndIndexedSets() {
        DomainBounds box = new DomainBounds(new double[] {0, 0, 0, 0}, new double[] {1, 1, 1, 1});
        for (int size : new int[] {1, 10, 63, 64, 160, 1000}) {
            assertNearestAsPlainSearch(PublicPointSet.uniform(box, size, size), size);
        }
    }

    @Test
    void aDeserializedCopyRebuildsItsIndexAndAnswersAlike() throws Exception {
        DomainBounds box = new DomainBounds(new double[] {0, 0, 0}, new double[] {1, 1, 1});
        PublicPointSet s = PublicPointSet.uniform(box, 500, 3);
        s.nearest(new double[] {0.5, 0.5, 0.5}); // the index exists before serializing
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        PublicPointSet copy;
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (PublicPointSet) in.readObject();
        }
        assertNearestAsPlainSearch(copy, 4);
    }
}
