package org.dpclust.batch;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpclust.geometry.DomainBounds;
import org.dpclust.io.Dataset;
import org.dpclust.io.DatasetLoader;
import org.dpclust.io.DomainScaling;

/**
 * The snapshot of an offline file run: the records of a CSV file ({@link DatasetLoader} format), or
 * — for a graph universe given by the input edge list itself — every node of that graph once. When
 * bounds are declared, each record must have their dimension (else an error naming {@code
 * --bounds}) and is clamped into them. A header-only file is an empty snapshot.
 *
 * @param name the data set's name (the file name without {@code .csv})
 * @param points the records (n × d), clamped copies
 * @param dimension d, or 0 for an empty snapshot
 */
public record FileSnapshot(String name, double[][] points, int dimension) {

    /**
     * Loads {@code csv}.
     *
     * @param bounds declared bounds to check and clamp into, or null
     * @param everyNodeOf the universe whose nodes are the demand set ({@link
     *     UniverseSpec#demandIsEveryNode()}), or null to read the records from {@code csv}
     */
    public static FileSnapshot load(Path csv, DomainBounds bounds, KMedianUniverse everyNodeOf) {
        if (!Files.isRegularFile(csv)) {
            throw new IllegalArgumentException("--input: no such file " + csv);
        }
        Dataset data =
                everyNodeOf != null ? allNodes(csv, everyNodeOf) : DatasetLoader.loadCsv(csv);
        double[][] points = new double[data.size()][];
        for (int i = 0; i < points.length; i++) {
            points[i] = data.points()[i].clone();
            if (bounds != null) {
                if (points[i].length != bounds.dimension()) {
                    throw new IllegalArgumentException(
                            "--bounds: "
                                    + bounds.dimension()
                                    + " dimensions declared, the data has "
                                    + points[i].length);
                }
                bounds.clamp(points[i], points[i]);
            }
        }
        return new FileSnapshot(data.name(), points, data.dimension());
    }

    /** An edge-list input: the demand set is every node of the graph once. */
    private static Dataset allNodes(Path edges, KMedianUniverse u) {
        double[][] nodes = new double[u.size()][];
        for (int v = 0; v < nodes.length; v++) {
            nodes[v] = new double[] {v};
        }
        return new Dataset(edges.getFileName().toString(), nodes, null, DomainScaling.none());
    }
}
