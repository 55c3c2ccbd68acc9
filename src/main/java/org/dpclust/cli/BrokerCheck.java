package org.dpclust.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks up front that a Kafka bootstrap list can be reached, so that a wrong or unreachable broker
 * fails with one line naming the host and what to check, instead of a Kafka client exception
 * ("Failed to construct kafka consumer") that does not say the name does not resolve. Like a Kafka
 * client, it is satisfied by one reachable entry of the list. It only resolves names and opens a
 * TCP connection (no Kafka protocol): a reachable port that is not a broker is left to the client.
 */
public final class BrokerCheck {
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private BrokerCheck() {}

    /**
     * @throws IllegalStateException naming the host(s) and what to check, when no entry of {@code
     *     bootstrapServers} resolves and accepts a TCP connection
     */
    public static void requireReachable(String option, String bootstrapServers) {
        List<String> problems = new ArrayList<>();
        for (String entry : bootstrapServers.split(",")) {
            String hostPort = entry.trim();
            if (hostPort.isEmpty()) {
                continue;
            }
            String problem = problem(hostPort);
            if (problem == null) {
                return;
            }
            problems.add(problem);
        }
        if (problems.isEmpty()) {
            throw new IllegalArgumentException(option + " is empty");
        }
        throw new IllegalStateException(
                "cannot reach the Kafka broker ("
                        + option
                        + " "
                        + bootstrapServers
                        + "): "
                        + String.join("; ", problems));
    }

    /** Why one {@code host:port} cannot be reached, or null when it accepts a connection. */
    static String problem(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon > 0 ? hostPort.substring(0, colon) : hostPort;
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(hostPort.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            return "'" + hostPort + "' is not host:port";
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return "host '"
                    + host
                    + "' does not resolve (check the name and DNS; names such as 'kafka' resolve"
                    + " only inside docker compose, a broker from `dpclust local` is at"
                    + " 127.0.0.1:9092)";
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), CONNECT_TIMEOUT_MS);
            return null;
        } catch (IOException e) {
            return "nothing accepts connections at "
                    + host
                    + ":"
                    + port
                    + " ("
                    + e.getMessage()
                    + "; is the broker running and is the port right? `dpclust local` starts one)";
        }
    }
}
