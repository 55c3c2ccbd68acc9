package org.dpclust.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Prints machine-readable result rows: one JSON object per line (JSON Lines), keys in the order
 * they were given, to a {@link PrintStream}.
 *
 * <p>Contract: every key must be snake_case ({@code [a-z][a-z0-9]*(_[a-z0-9]+)*}), otherwise an
 * {@link IllegalArgumentException} is thrown before anything is printed. Values are serialised by
 * Jackson (numbers, strings, booleans, null, arrays, maps, records); non-finite doubles are written
 * as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. Each row is printed with a
 * single {@code println} and flushed.
 */
public final class JsonRows {

    private static final Pattern SNAKE_CASE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final PrintStream out;

    /** Rows will be printed to {@code out}. */
    public JsonRows(PrintStream out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    /** Starts a row; add fields with {@link Row#put} and finish with {@link Row#print()}. */
    public Row row() {
        return new Row();
    }

    /** Prints {@code fields} (iteration order = key order, e.g. a LinkedHashMap) as one line. */
    public void print(Map<String, ?> fields) {
        Row row = row();
        fields.forEach(row::put);
        row.print();
    }

    /**
     * One row under construction; keys keep insertion order (a repeated key keeps its first place).
     */
    public final class Row {
        private final ObjectNode node = MAPPER.createObjectNode();

        private Row() {}

        /** Adds or replaces {@code key}. */
        public Row put(String key, Object value) {
            if (key == null || !SNAKE_CASE.matcher(key).matches()) {
                throw new IllegalArgumentException("JSON key must be snake_case: '" + key + "'");
            }
            node.set(key, MAPPER.valueToTree(value));
            return this;
        }

        /** Prints this row as one line. */
        public void print() {
            try {
                out.println(MAPPER.writeValueAsString(node));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
            out.flush();
        }
    }
}
