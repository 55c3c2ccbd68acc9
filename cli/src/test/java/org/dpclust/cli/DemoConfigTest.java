package org.dpclust.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpclust.config.DpclustConfig;
import org.junit.jupiter.api.Test;

/** The demo's packaged configuration (demo-config.yaml) parses and declares its two streams. */
class DemoConfigTest {
    @Test
    void theDemoConfigurationIsValid() throws Exception {
        DpclustConfig c = DemoCommand.demoConfig();
        assertEquals(2, c.streams().size());
    }
}
