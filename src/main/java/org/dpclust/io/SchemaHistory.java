package org.dpclust.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Every schema version this jar has written, shipped as resources under {@code /avro-history/}
 * ({@code <Name>.v<N>.avsc}, listed in {@code /avro-history/index.txt}). Decoders register all of
 * them so that messages written by earlier dpclust versions resolve against the current reader
 * schema.
 */
public final class SchemaHistory {
    private SchemaHistory() {}

    /** All shipped versions of the record with this full name, oldest first. */
    public static List<Schema> versionsOf(String fullName) {
        List<Schema> out = new ArrayList<>();
        for (String file : index()) {
            Schema s = load(file);
            if (s.getFullName().equals(fullName)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The resource names listed in the index. */
    public static List<String> index() {
        try (InputStream in = SchemaHistory.class.getResourceAsStream("/avro-history/index.txt")) {
            if (in == null) {
                throw new IllegalStateException("/avro-history/index.txt missing from the jar");
            }
            List<String> files = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    files.add(line.trim());
                }
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Schema load(String file) {
        try (InputStream in = SchemaHistory.class.getResourceAsStream("/avro-history/" + file)) {
            if (in == null) {
                throw new IllegalStateException("/avro-history/" + file + " listed but missing");
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
