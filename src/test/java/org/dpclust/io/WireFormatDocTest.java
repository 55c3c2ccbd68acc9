package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.dpclust.avro.RejectedRecord;
import org.junit.jupiter.api.Test;

/**
 * docs/wire-format.md states what the code writes: its fingerprint table matches every published
 * schema version the jar ships (and the current {@code avro/*.avsc}), and its worked example is
 * byte for byte what {@link AvroCodec} and {@link AvroJson} write for that record.
 */
class WireFormatDocTest {
    private static final Path DOC = Path.of("docs/wire-format.md");
    private static final Pattern ROW =
            Pattern.compile(
                    "^\\| `(\\w+)` v(\\d+)( \\(current\\))? \\| `0x([0-9A-F]{16})` \\|"
                            + " `([0-9A-F ]+)` \\|$",
                    Pattern.MULTILINE);
    private static final Set<String> PUBLISHED =
            Set.of("CentroidRelease", "SketchRelease", "RejectedRecord", "BudgetStatus");

    private static Schema parse(InputStream in) throws IOException {
        try (in) {
            return new Schema.Parser().parse(in);
        }
    }

    @Test
    void theFingerprintTableListsEveryPublishedSchemaVersion() throws Exception {
        String doc = Files.readString(DOC);
        Set<String> listed = new HashSet<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            String file = m.group(1) + ".v" + m.group(2) + ".avsc";
            Schema s = parse(SchemaHistory.class.getResourceAsStream("/avro-history/" + file));
            long fp = SchemaNormalization.parsingFingerprint64(s);
            assertEquals(String.format("%016X", fp), m.group(4), file);
            byte[] le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(fp).array();
            assertEquals(
                    HexFormat.ofDelimiter(" ").withUpperCase().formatHex(le), m.group(5), file);
            long current =
                    SchemaNormalization.parsingFingerprint64(
                            new Schema.Parser()
                                    .parse(Path.of("avro", m.group(1) + ".avsc").toFile()));
            assertEquals(m.group(3) != null, current == fp, file + " is the current version");
            listed.add(file);
        }
        Set<String> shipped = new HashSet<>();
        for (String f : SchemaHistory.index()) {
            if (PUBLISHED.contains(f.substring(0, f.indexOf('.')))) {
                shipped.add(f);
            }
        }
        assertEquals(shipped, listed, "docs/wire-format.md's fingerprint table");
    }

    @Test
    void theWorkedExampleIsWhatTheCodecsWrite() throws Exception {
        String doc = Files.readString(DOC);
        int at = doc.indexOf("A worked example");
        assertTrue(at > 0, "the worked example");
        int start = doc.indexOf("```\n", at) + 4;
        int end = doc.indexOf("```", start);
        List<String> hex = new ArrayList<>();
        for (String line : doc.substring(start, end).split("\n")) {
            for (String token : line.trim().split(" +")) {
                if (!token.matches("[0-9A-F]{2}")) {
                    break;
                }
                hex.add(token);
            }
        }
        RejectedRecord r =
                RejectedRecord.newBuilder()
                        .setReason("late")
                        .setDetail("closed")
                        .setStreamId("s1")
                        .setEventTime(Instant.ofEpochMilli(1_767_225_600_123L))
                        .setSourceTopic("in")
                        .setSourcePartition(0)
                        .setSourceOffset(7)
                        .setOriginal(ByteBuffer.wrap(new byte[] {1, 2}))
                        .build();
        assertArrayEquals(
                HexFormat.of().parseHex(String.join("", hex)), AvroCodec.rejected().encode(r));
        int json = doc.indexOf("```json\n", end) + 8;
        assertEquals(
                doc.substring(json, doc.indexOf("\n", json)),
                new String(AvroJson.toJson(r), StandardCharsets.UTF_8));
    }
}
