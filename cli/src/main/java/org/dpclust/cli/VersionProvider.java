package org.dpclust.cli;

import org.dpclust.config.ProjectVersion;
import picocli.CommandLine;

/**
 * {@code dpclust -V}: the project version from the pom, what the build was made of (commit, Flink,
 * Kafka, Avro: {@link ProjectVersion}) and Java's.
 */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "dpclust " + ProjectVersion.get(),
            ProjectVersion.buildInfo(),
            "java " + System.getProperty("java.version")
        };
    }
}
