package org.dpclust.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * docker-compose.yml read the way Compose and the images read it, for tests that check it or run
 * its services as processes: YAML anchors resolved (SnakeYAML; Jackson's tree leaves aliases as
 * their names), {@code ${VAR}}, {@code ${VAR:-default}} and {@code ${VAR:?message}} interpolated
 * from a given environment, {@code $$} as a literal {@code $}, and {@code FLINK_PROPERTIES} split
 * into settings by the Flink image's entrypoint rule.
 */
public final class ComposeFile {
    private static final Pattern VARIABLE =
            Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\\?)([^}]*))?}");

    private final JsonNode root;
    private final Map<String, String> shell;

    private ComposeFile(JsonNode root, Map<String, String> shell) {
        this.root = root;
        this.shell = shell;
    }

    /** Reads {@code file}, interpolating variables from {@code shell} (Compose's environment). */
    public static ComposeFile load(Path file, Map<String, String> shell) {
        try {
            Object tree =
                    new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
            return new ComposeFile(new ObjectMapper().valueToTree(tree), shell);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole file, anchors resolved, variables not yet interpolated. */
    public JsonNode root() {
        return root;
    }

    public JsonNode service(String name) {
        JsonNode s = root.path("services").path(name);
        if (s.isMissingNode()) {
            throw new IllegalArgumentException("docker-compose.yml has no service " + name);
        }
        return s;
    }

    /** The service's environment, interpolated. */
    public Map<String, String> environment(String service) {
        Map<String, String> env = new LinkedHashMap<>();
        service(service)
                .path("environment")
                .fields()
                .forEachRemaining(e -> env.put(e.getKey(), interpolate(e.getValue().asText())));
        return env;
    }

    /** The service's command as one string, interpolated (a list is joined with spaces). */
    public String command(String service) {
        JsonNode c = service(service).path("command");
        if (c.isArray()) {
            StringBuilder b = new StringBuilder();
            c.forEach(a -> b.append(b.length() == 0 ? "" : " ").append(a.asText()));
            return interpolate(b.toString());
        }
        return interpolate(c.asText().trim());
    }

    /**
     * The service's mounts: container path to source (a bind mount's host path as written, or
     * {@code volume:NAME} for a named volume).
     */
    public Map<String, String> mounts(String service) {
        Map<String, String> m = new LinkedHashMap<>();
        for (JsonNode v : service(service).path("volumes")) {
            String[] parts = v.asText().split(":");
            String source = parts[0];
            m.put(
                    parts[1],
                    source.startsWith(".") || source.startsWith("/") ? source : "volume:" + source);
        }
        return m;
    }

    /**
     * {@code FLINK_PROPERTIES} as the Flink 2.x image's docker-entrypoint.sh applies it: one
     * setting per non-blank line, the key before the line's first colon and the value after it,
     * both trimmed.
     */
    public static Map<String, String> flinkProperties(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty()) {
                continue;
            }
            int colon = l.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("FLINK_PROPERTIES line without a colon: " + l);
            }
            out.put(l.substring(0, colon).strip(), l.substring(colon + 1).strip());
        }
        return out;
    }

    private String interpolate(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$$", i)) {
                out.append('$');
                i += 2;
                continue;
            }
            Matcher m = VARIABLE.matcher(text).region(i, text.length());
            if (text.charAt(i) == '$' && m.lookingAt()) {
                String value = shell.get(m.group(1));
                if (value == null || value.isEmpty()) {
                    if (":?".equals(m.group(2))) {
                        throw new IllegalStateException(m.group(1) + ": " + m.group(3));
                    }
                    value = ":-".equals(m.group(2)) ? m.group(3) : "";
                }
                out.append(value);
                i = m.end();
                continue;
            }
            out.append(text.charAt(i++));
        }
        return out.toString();
    }
}
