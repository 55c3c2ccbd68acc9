package org.dpclust.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The project version, from {@code org/dpclust/version.properties}, which Maven fills in from the
 * pom at build time (the only filtered resource, see pom.xml): classes run from {@code
 * target/classes} and the packaged jars report the same version.
 */
public final class ProjectVersion {
    static final String RESOURCE = "/org/dpclust/version.properties";

    private ProjectVersion() {}

    /**
     * The version the build wrote, e.g. {@code 0.1.0-SNAPSHOT}.
     *
     * @throws IllegalStateException if the resource is missing or was not filtered
     */
    public static String get() {
        return property("version");
    }

    /**
     * What the build was made of, e.g. {@code commit 1a2b3c4, Flink 2.2.1, Kafka 4.2.1 (connector
     * 5.0.0-2.2), Avro 1.12.1}; the commit is {@code unknown} when built outside a git checkout.
     */
    public static String buildInfo() {
        String commit = properties().getProperty("commit", "");
        return "commit "
                + (commit.isBlank() || commit.contains("${") ? "unknown" : commit)
                + ", Flink "
                + property("flink")
                + ", Kafka "
                + property("kafka")
                + " (connector "
                + property("connector")
                + "), Avro "
                + property("avro");
    }

    private static String property(String name) {
        String v = properties().getProperty(name, "");
        if (v.isBlank() || v.contains("${")) {
            throw new IllegalStateException(RESOURCE + " was not filtered by the build: " + v);
        }
        return v;
    }

    private static Properties properties() {
        try (InputStream in = ProjectVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            Properties p = new Properties();
            p.load(in);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
