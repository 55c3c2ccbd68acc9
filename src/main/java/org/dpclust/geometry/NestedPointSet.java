package org.dpclust.geometry;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A two-level public partition of the declared box: coarse cells (the Voronoi cells of a {@link
 * PublicPointSet}) each split into fine cells around the coarse cell's public children. A record's
 * fine cell is found by descent — its nearest coarse point, then the nearest of that coarse point's
 * children — so it is a public function of the record alone, independent of other records and of
 * arrival order, and costs two small nearest-point searches. Nothing here is private.
 *
 * <p>Construction ({@link #uniform}): the coarse points and a separate set of fine points are drawn
 * uniformly in the box from the public seed; each fine point becomes a child of its nearest coarse
 * point. A coarse point that receives no fine point gets itself as its only child, so every coarse
 * cell has at least one fine cell. Fine cells are numbered coarse cell by coarse cell: the children
 * of coarse cell j are {@code [from(j), to(j))}.
 */
public final class NestedPointSet implements Serializable {
    private final PublicPointSet coarse;
    private final PublicPointSet[] children;
    private final int[] offsets;

    private NestedPointSet(PublicPointSet coarse, PublicPointSet[] children) {
        this.coarse = coarse;
        this.children = children;
        this.offsets = new int[children.length + 1];
        for (int j = 0; j < children.length; j++) {
            offsets[j + 1] = offsets[j] + children[j].size();
        }
    }

    /**
     * {@code coarseSize} coarse points and {@code fineSize} fine points uniform in the box, from
     * the public seed (the coarse points are exactly {@code PublicPointSet.uniform(bounds,
     * coarseSize, publicSeed)}).
     */
    public static NestedPointSet uniform(
            DomainBounds bounds, int coarseSize, int fineSize, long publicSeed) {
        PublicPointSet coarse = PublicPointSet.uniform(bounds, coarseSize, publicSeed);
        PublicPointSet fine =
                PublicPointSet.uniform(bounds, fineSize, publicSeed ^ 0x9E3779B97F4A7C15L);
        List<List<double[]>> kids = new ArrayList<>();
        for (int j = 0; j < coarseSize; j++) {
            kids.add(new ArrayList<>());
        }
        for (int i = 0; i < fineSize; i++) {
            double[] p = fine.point(i);
            kids.get(coarse.nearest(p)).add(p);
        }
        PublicPointSet[] children = new PublicPointSet[coarseSize];
        for (int j = 0; j < coarseSize; j++) {
            if (kids.get(j).isEmpty()) {
                kids.get(j).add(coarse.point(j));
            }
            children[j] = new PublicPointSet(kids.get(j).toArray(new double[0][]));
        }
        return new NestedPointSet(coarse, children);
    }

    public int dimension() {
        return coarse.dimension();
    }

    /** Number of coarse cells. */
    public int coarseSize() {
        return children.length;
    }

    /** Number of fine cells (at least {@link #coarseSize}). */
    public int fineSize() {
        return offsets[children.length];
    }

    /** First fine cell of coarse cell j. */
    public int from(int j) {
        return offsets[j];
    }

    /** One past the last fine cell of coarse cell j. */
    public int to(int j) {
        return offsets[j + 1];
    }

    /** The fine cell of x, by descent: nearest coarse point, then nearest of its children. */
    public int fine(double[] x) {
        int j = coarse.nearest(x);
        return offsets[j] + children[j].nearest(x);
    }
}
