package org.dpclust.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fleets in configuration: one {@code streams} entry with {@code ids} instead of {@code id}
 * declares a stream set — the same options for every id of a public list, a numbered range or a
 * file of ids — with optional per-id {@code overrides}. Each member is then read exactly like a
 * stream written out by hand with that id (its {@code public_seed} too, unless set, is derived from
 * its own id). The set of streams is public configuration: a stream exists because the
 * configuration names it, never because a record does.
 *
 * <pre>
 * ids: [tenant-a, tenant-b]                            # a list
 * ids: {prefix: site-, from: 1, to: 10000, digits: 5}  # site-00001 .. site-10000
 * ids: {file: fleet-ids.txt}                           # one id per line; '#' starts a comment
 * overrides: {site-00042: {budget_cap: 20}}            # merged over the set's options
 * </pre>
 *
 * A file is read relative to the configuration file's directory. Members are named in errors as
 * {@code streams[i][id]}; at most {@link #MAX_STREAMS} streams per configuration.
 */
final class StreamSets {
    /** The most streams one configuration may declare (sets expanded). */
    static final int MAX_STREAMS = 100_000;

    /** The largest ids file read, in bytes. */
    static final long MAX_FILE_BYTES = 8L << 20;

    private StreamSets() {}

    /** One member of an entry: its option path and its options (with {@code id}). */
    record Member(String path, JsonNode options) {}

    /**
     * The members of entry {@code p}: the entry itself when it has {@code id}, else one per id of
     * its set, each with the set's options, the id, and its override merged in.
     */
    static List<Member> expand(JsonNode entry, String p, Path baseDir, int declaredSoFar) {
        if (!entry.isObject() || !entry.has("ids")) {
            return List.of(new Member(p, entry));
        }
        if (entry.has("id")) {
            throw new ConfigException(p + ".id", "a stream set has ids instead of id, not both");
        }
        List<String> ids = ids(entry.get("ids"), p + ".ids", baseDir, declaredSoFar);
        Map<String, JsonNode> overrides = overrides(entry.path("overrides"), p, ids);
        ObjectNode template = ((ObjectNode) entry).deepCopy();
        template.remove("ids");
        template.remove("overrides");
        List<Member> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            ObjectNode m = template.deepCopy();
            JsonNode o = overrides.get(id);
            if (o != null) {
                merge(m, o);
            }
            m.put("id", id);
            out.add(new Member(p + "[" + id + "]", m));
        }
        return out;
    }

    private static List<String> ids(JsonNode n, String p, Path baseDir, int declaredSoFar) {
        List<String> ids = new ArrayList<>();
        int room = MAX_STREAMS - declaredSoFar;
        if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                JsonNode v = n.get(i);
                if (!v.isTextual() && !v.isNumber()) {
                    throw new ConfigException(p + "[" + i + "]", "expected a stream id");
                }
                ids.add(v.asText());
            }
        } else if (n.isObject() && n.has("file")) {
            ConfigLoader.allowOnly(n, p, Set.of("file"));
            ids = file(n.get("file").asText(), p + ".file", baseDir);
        } else if (n.isObject()) {
            ConfigLoader.allowOnly(n, p, Set.of("prefix", "from", "to", "digits", "suffix"));
            long from = whole(n, p, "from", Long.MIN_VALUE);
            long to = whole(n, p, "to", Long.MIN_VALUE);
            long digits = whole(n, p, "digits", 0);
            if (from < 0 || to < from) {
                throw new ConfigException(p + ".to", "must be >= from >= 0");
            }
            if (to - from + 1 > room) {
                throw tooMany(p, to - from + 1 + declaredSoFar);
            }
            if (digits < 0 || digits > 18) {
                throw new ConfigException(p + ".digits", "must be in 0..18");
            }
            String prefix = n.path("prefix").asText("");
            String suffix = n.path("suffix").asText("");
            for (long i = from; i <= to; i++) {
                String number = Long.toString(i);
                ids.add(
                        prefix
                                + "0".repeat((int) Math.max(0, digits - number.length()))
                                + number
                                + suffix);
            }
        } else {
            throw new ConfigException(
                    p, "expected a list of ids, {prefix, from, to, digits} or {file}");
        }
        if (ids.isEmpty()) {
            throw new ConfigException(p, "a stream set needs at least one id");
        }
        if (ids.size() > room) {
            throw tooMany(p, (long) ids.size() + declaredSoFar);
        }
        return ids;
    }

    private static List<String> file(String name, String p, Path baseDir) {
        Path f = baseDir.resolve(name);
        List<String> ids = new ArrayList<>();
        try {
            if (Files.size(f) > MAX_FILE_BYTES) {
                throw new ConfigException(p, f + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            int line = 0;
            for (String raw : Files.readAllLines(f)) {
                line++;
                int hash = raw.indexOf('#');
                String id = (hash < 0 ? raw : raw.substring(0, hash)).strip();
                if (!id.isEmpty()) {
                    if (id.chars().anyMatch(Character::isWhitespace)) {
                        throw new ConfigException(
                                p, f + " line " + line + ": one id per line, no spaces");
                    }
                    ids.add(id);
                }
            }
        } catch (IOException e) {
            throw new ConfigException(p, "cannot read ids file " + f + ": " + e.getMessage());
        }
        return ids;
    }

    private static Map<String, JsonNode> overrides(JsonNode n, String p, List<String> ids) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new ConfigException(p + ".overrides", "expected a mapping of id to options");
        }
        Set<String> members = new HashSet<>(ids);
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = p + ".overrides." + e.getKey();
            if (!members.contains(e.getKey())) {
                throw new ConfigException(at, "not an id of this stream set");
            }
            if (!e.getValue().isObject()) {
                throw new ConfigException(at, "expected a mapping of options");
            }
            if (e.getValue().has("id") || e.getValue().has("ids")) {
                throw new ConfigException(at + ".id", "an override cannot change the id");
            }
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** Merges {@code over} into {@code base}: mappings key by key, anything else replaced. */
    private static void merge(ObjectNode base, JsonNode over) {
        for (Iterator<Map.Entry<String, JsonNode>> it = over.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode old = base.get(e.getKey());
            if (old instanceof ObjectNode o && e.getValue().isObject()) {
                merge(o, e.getValue());
            } else {
                base.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }

    private static long whole(JsonNode n, String p, String f, long dflt) {
        JsonNode v = n.path(f);
        if (v.isMissingNode() || v.isNull()) {
            if (dflt == Long.MIN_VALUE) {
                throw new ConfigException(p + "." + f, "required");
            }
            return dflt;
        }
        if (!v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new ConfigException(p + "." + f, "expected a whole number");
        }
        return v.asLong();
    }

    private static ConfigException tooMany(String p, long n) {
        return new ConfigException(
                p, n + " streams in this configuration; at most " + MAX_STREAMS + " are allowed");
    }
}
