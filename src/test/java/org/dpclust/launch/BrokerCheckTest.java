package org.dpclust.launch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class BrokerCheckTest {
    @Test
    void anUnresolvableHostIsNamedWithWhatToCheck() {
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () ->
                                BrokerCheck.requireReachable(
                                        "kafka.bootstrap_servers", "no-such-broker.invalid:9092"));
        assertTrue(e.getMessage().contains("kafka.bootstrap_servers"), e.getMessage());
        assertTrue(
                e.getMessage().contains("host 'no-such-broker.invalid' does not resolve"),
                e.getMessage());
        assertTrue(e.getMessage().contains("DNS"), e.getMessage());
    }

    @Test
    void aClosedPortIsNamed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String servers = "127.0.0.1:" + port;
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> BrokerCheck.requireReachable("--bootstrap-servers", servers));
        assertTrue(
                e.getMessage().contains("nothing accepts connections at " + servers),
                e.getMessage());
    }

    @Test
    void oneReachableEntryOfTheListIsEnough() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            String servers = "no-such-broker.invalid:9092, 127.0.0.1:" + s.getLocalPort();
            assertDoesNotThrow(() -> BrokerCheck.requireReachable("--bootstrap-servers", servers));
        }
    }

    @Test
    void anEntryWithoutAPortIsRejected() {
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> BrokerCheck.requireReachable("--bootstrap-servers", "localhost"));
        assertTrue(e.getMessage().contains("'localhost' is not host:port"), e.getMessage());
    }
}
