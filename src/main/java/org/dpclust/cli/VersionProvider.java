package org.dpclust.cli;

import picocli.CommandLine;

/** Version from the jar manifest, or "dev" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = DpclustCommand.class.getPackage().getImplementationVersion();
        return new String[] {
            "dpclust " + (v == null ? "dev" : v), "java " + System.getProperty("java.version")
        };
    }
}
