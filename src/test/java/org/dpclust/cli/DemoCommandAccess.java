package org.dpclust.cli;

import org.dpclust.config.DpclustConfig;

/** Test access to the demo's packaged configuration. */
public final class DemoCommandAccess {
    private DemoCommandAccess() {}

    public static DpclustConfig demoConfig() throws Exception {
        return DemoCommand.demoConfig();
    }
}
