package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random damage to a CSV data set (plain and gzip): the loader either reads it or fails with one
 * line naming the file (an {@link IllegalArgumentException}, which the CLI prints without a stack
 * trace) — never another exception, never a multi-line or unbounded message.
 */
class DatasetLoaderFuzzTest {
    private static final String[] TOKENS = {
        ",",
        "\n",
        "\r\n",
        "\r",
        "\"",
        " ",
        "-",
        ".",
        "e",
        "E+999",
        "NaN",
        "Infinity",
        "label",
        "x9",
        "\uFEFF",
        "\u0000",
        "0x1p3",
        "1",
        "2.5",
        ",,,,",
        "label,label",
        "\u2028",
        "é"
    };

    @TempDir Path dir;

    private static byte[] validCsv(SplittableRandom r) {
        StringBuilder s = new StringBuilder("x1,x2,x3,label\n");
        for (int i = 0; i < 30; i++) {
            s.append(r.nextDouble())
                    .append(',')
                    .append(-r.nextDouble())
                    .append(',')
                    .append(r.nextInt(100))
                    .append(',')
                    .append(r.nextInt(3))
                    .append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] mutate(byte[] b, SplittableRandom r) {
        int edits = 1 + r.nextInt(5);
        for (int e = 0; e < edits; e++) {
            int at = b.length == 0 ? 0 : r.nextInt(b.length + 1);
            byte[] insert =
                    switch (r.nextInt(6)) {
                        case 0 -> TOKENS[r.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8);
                        case 1 -> new byte[] {(byte) r.nextInt(256)}; // maybe invalid UTF-8
                        case 2 -> "9".repeat(1 + r.nextInt(20_000)).getBytes(); // a huge field
                        default -> new byte[0];
                    };
            int cut = insert.length == 0 ? Math.min(b.length - at, r.nextInt(40)) : 0;
            byte[] c = new byte[b.length - cut + insert.length];
            System.arraycopy(b, 0, c, 0, at);
            System.arraycopy(insert, 0, c, at, insert.length);
            System.arraycopy(b, at + cut, c, at + insert.length, b.length - at - cut);
            b = c;
        }
        return b;
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(o)) {
            z.write(b);
        }
        return o.toByteArray();
    }

    private static void load(Path file, int[] counts) {
        try {
            Dataset d = DatasetLoader.loadCsv(file);
            assertTrue(d.size() >= 0);
            counts[0]++;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            assertTrue(m.startsWith(file.toString() + ": "), "names the file: " + m);
            assertFalse(m.contains("\n") || m.contains("\r"), "one line: " + m);
            assertTrue(m.length() < 400, "a bounded message (" + m.length() + " chars)");
            counts[1]++;
        } catch (RuntimeException e) {
            fail("an exception the CLI would print with a stack trace, on " + file, e);
        }
    }

    @Test
    void damagedCsvFilesLoadOrFailWithOneLine() throws IOException {
        SplittableRandom r = new SplittableRandom(20);
        int[] counts = new int[2];
        for (int i = 0; i < 1500; i++) {
            byte[] b = mutate(validCsv(r), r);
            boolean gz = i % 5 == 0;
            Path f = dir.resolve("fuzz" + i + (gz ? ".csv.gz" : ".csv"));
            byte[] content = gz ? gzip(b) : b;
            if (gz && i % 10 == 0) { // damage the gzip stream itself
                content = Arrays.copyOf(content, r.nextInt(content.length));
            }
            Files.write(f, content);
            load(f, counts);
            Files.delete(f);
        }
        assertTrue(
                counts[0] > 0 && counts[1] > 0, "both outcomes occur: " + Arrays.toString(counts));
    }
}
