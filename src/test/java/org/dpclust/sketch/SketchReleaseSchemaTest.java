package org.dpclust.sketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.dpclust.avro.SketchRelease;
import org.dpclust.io.SchemaHistory;
import org.junit.jupiter.api.Test;

class SketchReleaseSchemaTest {

    @Test
    void historyShipsTheCurrentSchemaAsTheLatestVersion() {
        List<Schema> versions = SchemaHistory.versionsOf("org.dpclust.avro.SketchRelease");
        assertEquals(2, versions.size());
        // same parsing canonical form (the generated class adds only Java string properties)
        assertEquals(
                SchemaNormalization.parsingFingerprint64(SketchRelease.getClassSchema()),
                SchemaNormalization.parsingFingerprint64(versions.get(1)));
        for (String field : new String[] {"delta", "accounting", "rho", "rho_spent", "rho_cap"}) {
            assertTrue(versions.get(0).getField(field) == null, "v1 has no " + field);
            assertTrue(SketchRelease.getClassSchema().getField(field) != null, field);
        }
        for (String field :
                new String[] {
                    "stream_id",
                    "window_start",
                    "window_end",
                    "windows_covered",
                    "m",
                    "r",
                    "dimension",
                    "frequency_seed",
                    "frequency_law",
                    "frequency_sigma",
                    "sketch",
                    "noisy_count",
                    "epsilon",
                    "guarantee",
                    "neighbouring",
                    "privacy_unit",
                    "schema_version"
                }) {
            assertTrue(SketchRelease.getClassSchema().getField(field) != null, field);
        }
    }
}
