package org.dpclust.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.avro.CentroidRelease;
import org.dpclust.avro.SketchRelease;
import org.junit.jupiter.api.Test;

/**
 * Backward compatibility of the zCDP schema versions (BudgetStatus v3, CentroidRelease v2,
 * SketchRelease v2): the current reader schema reads every shipped version, and the new fields take
 * their documented defaults (pure accounting, ρ = 0) on a record written with the previous version.
 * (That the current files are shipped unchanged is {@code AvroCodecTest}'s check.)
 */
class SchemaEvolutionTest {
    @Test
    void currentSchemasReadEveryShippedVersion() {
        for (Schema current :
                List.of(
                        BudgetStatus.getClassSchema(),
                        CentroidRelease.getClassSchema(),
                        SketchRelease.getClassSchema())) {
            List<Schema> versions = SchemaHistory.versionsOf(current.getFullName());
            assertTrue(versions.size() >= 2, current.getFullName());
            for (Schema old : versions) {
                assertEquals(
                        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
                        SchemaCompatibility.checkReaderWriterCompatibility(current, old).getType(),
                        current.getFullName() + " cannot read " + old);
            }
        }
    }

    @Test
    void aVersion2BudgetStatusReadsAsPureWithZeroRho() throws IOException {
        Schema v2 = SchemaHistory.versionsOf(BudgetStatus.getClassSchema().getFullName()).get(1);
        assertTrue(v2.getField("rho") == null, "index order: v2 has no rho");
        GenericRecord r = new GenericData.Record(v2);
        for (Schema.Field f : v2.getFields()) {
            Object value =
                    switch (f.schema().getType()) {
                        case INT -> 2;
                        case LONG -> 0L;
                        case DOUBLE -> 0.5;
                        case STRING -> "x";
                        case ENUM -> new GenericData.EnumSymbol(f.schema(), "CHARGE");
                        default -> throw new IllegalStateException(f.toString());
                    };
            r.put(f.name(), value);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(v2).write(r, enc);
        enc.flush();
        GenericRecord read =
                new GenericDatumReader<GenericRecord>(v2, BudgetStatus.getClassSchema())
                        .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        assertEquals("pure", read.get("accounting").toString());
        assertEquals(0.0, read.get("rho"));
        assertEquals(0.0, read.get("rho_spent"));
        assertEquals(false, read.get("lifetime_refused"));
        assertEquals(0.5, read.get("spent"));
    }
}
