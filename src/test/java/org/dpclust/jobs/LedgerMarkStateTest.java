package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.dpclust.ledger.LedgerMark;
import org.junit.jupiter.api.Test;

/**
 * The streaming operator keeps each stream's {@link LedgerMark} in keyed state: it must serialize
 * as a Flink POJO (the jobs forbid Kryo) and round-trip.
 */
class LedgerMarkStateTest {
    @Test
    void aLedgerMarkIsAFlinkPojoThatRoundTrips() throws Exception {
        TypeInformation<LedgerMark> info = TypeInformation.of(LedgerMark.class);
        assertInstanceOf(PojoTypeInfo.class, info);
        SerializerConfigImpl cfg = new SerializerConfigImpl();
        cfg.setGenericTypes(false); // as StreamingJob.forbidKryo
        TypeSerializer<LedgerMark> ser = info.createSerializer(cfg);
        DataOutputSerializer out = new DataOutputSerializer(64);
        LedgerMark m = new LedgerMark("6f1b0c0e-topic-id", 412);
        ser.serialize(m, out);
        assertEquals(m, ser.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())));
    }
}
