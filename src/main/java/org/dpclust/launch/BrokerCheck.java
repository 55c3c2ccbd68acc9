package org.dpclust.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.dpclust.config.KafkaConnection;

/**
 * Checks up front that a Kafka bootstrap list can be reached, so that a wrong or unreachable broker
 * fails with one line naming the host and what to check, instead of a Kafka client exception
 * ("Failed to construct kafka consumer") that does not say the name does not resolve. Like a Kafka
 * client, it is satisfied by one reachable entry of the list. It only resolves names and opens a
 * TCP connection (no Kafka protocol): a reachable port that is not a broker is left to the client.
 *
 * <p>{@link #require} adds what a secured cluster needs checked: that every secret reference in the
 * client properties resolves, and — when there are client properties — that the broker accepts the
 * client (TLS handshake, SASL authentication): wrong credentials fail here, at start-up, with one
 * line naming the servers, the security protocol and mechanism, and Kafka's reason (never a
 * property value).
 */
public final class BrokerCheck {
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int ACCEPT_TIMEOUT_MS = 30_000;

    private BrokerCheck() {}

    /**
     * The start-up check of a command that talks to Kafka: the client properties' secret references
     * resolve ({@link KafkaConnection#requireResolvable}), the servers are reachable ({@link
     * #requireReachable}) and, with client properties, accept this client ({@link
     * #requireAccepted}).
     *
     * @param serversOption the option naming the servers, for messages
     * @param propertiesOption the option(s) the client properties come from, for messages
     */
    public static void require(
            String serversOption, KafkaConnection kafka, String propertiesOption) {
        kafka.requireResolvable(propertiesOption);
        requireReachable(serversOption, kafka.bootstrapServers());
        if (!kafka.properties().isEmpty()) {
            requireAccepted(kafka, propertiesOption);
        }
    }

    /**
     * Asks the cluster to describe itself with {@code kafka}'s client properties: this runs the TLS
     * handshake and SASL authentication a real client would.
     *
     * @throws UserError one line: authentication failed (servers, protocol, mechanism, Kafka's
     *     reason), not authorized, or no answer in time
     */
    static void requireAccepted(KafkaConnection kafka, String propertiesOption) {
        Map<String, Level> levels = quietKafkaClients();
        try (Admin admin =
                Admin.create(
                        kafka.clientProperties(
                                Map.of(
                                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                                        ACCEPT_TIMEOUT_MS,
                                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                                        ACCEPT_TIMEOUT_MS / 2)))) {
            admin.describeCluster().clusterId().get(ACCEPT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            String line = securityProblem(e, kafka, propertiesOption);
            throw new UserError(
                    "",
                    line != null
                            ? line
                            : "the Kafka cluster at "
                                    + kafka.bootstrapServers()
                                    + " did not answer within "
                                    + ACCEPT_TIMEOUT_MS / 1000
                                    + " s with "
                                    + security(kafka)
                                    + ": check security.protocol and the listener's port in "
                                    + propertiesOption);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the Kafka cluster", e);
        } finally {
            restore(levels);
        }
    }

    /** The Kafka client loggers that report a refused connection (ERROR and WARN lines). */
    private static final List<String> CLIENT_LOGGERS =
            List.of(
                    "org.apache.kafka.clients.NetworkClient",
                    "org.apache.kafka.clients.admin",
                    "org.apache.kafka.common.network");

    /**
     * Turns off the Kafka client loggers that would report the check's own failure (an
     * authentication failure is an ERROR line of NetworkClient and a WARN line of the admin
     * client): the check reports it, in one line. Returns their previous levels; empty when the
     * logging backend is not log4j 2 (e.g. a Flink cluster configured otherwise), which then keeps
     * its lines.
     */
    private static Map<String, Level> quietKafkaClients() {
        try {
            Map<String, Level> before = new java.util.HashMap<>();
            for (String name : CLIENT_LOGGERS) {
                before.put(name, LogManager.getLogger(name).getLevel());
                Configurator.setLevel(name, Level.OFF);
            }
            return before;
        } catch (LinkageError | ClassCastException noLog4jCore) {
            return Map.of();
        }
    }

    private static void restore(Map<String, Level> levels) {
        if (!levels.isEmpty()) {
            Configurator.setLevel(levels);
        }
    }

    /**
     * One line for an authentication or authorization failure anywhere in {@code t}'s causes, or
     * null if there is none. Names the servers, the security settings in use and Kafka's reason
     * (Kafka's messages name the mechanism, never a credential).
     */
    static String securityProblem(Throwable t, KafkaConnection kafka, String propertiesOption) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof AuthenticationException) {
                return "Kafka authentication failed at "
                        + (kafka == null ? "the broker" : kafka.bootstrapServers())
                        + (kafka == null ? "" : " (" + security(kafka) + ")")
                        + ": "
                        + UserErrors.oneLine(c.getMessage())
                        + "; check the credentials and TLS settings in "
                        + propertiesOption;
            }
            if (c instanceof AuthorizationException) {
                return "Kafka refused access"
                        + (kafka == null ? "" : " at " + kafka.bootstrapServers())
                        + ": "
                        + UserErrors.oneLine(c.getMessage())
                        + "; grant the principal of "
                        + propertiesOption
                        + " the ACLs docs/deploy.md lists";
            }
        }
        return null;
    }

    private static String security(KafkaConnection kafka) {
        Map<String, String> p = kafka.properties();
        String protocol = p.getOrDefault("security.protocol", "PLAINTEXT");
        String mechanism = p.get("sasl.mechanism");
        return "security.protocol "
                + protocol
                + (protocol.startsWith("SASL")
                        ? ", sasl.mechanism " + (mechanism == null ? "GSSAPI" : mechanism)
                        : "");
    }

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
