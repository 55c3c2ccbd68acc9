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
        try (InputStream in = ProjectVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            if (v.isBlank() || v.contains("${")) {
                throw new IllegalStateException(RESOURCE + " was not filtered by the build: " + v);
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
