package org.dpclust.jobs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.dpclust.io.OutboundRecord;
import org.dpclust.io.RawRecord;
import org.dpclust.stream.ValidRecord;
import org.junit.jupiter.api.Test;

/** The job's record types have Flink's POJO serializer and Kryo is forbidden for everything else. */
class StreamingJobTest {
    @Test
    void recordTypesArePojosAndKryoIsForbidden() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamingJob.forbidKryo(env);
        assertTrue(env.getConfig().getSerializerConfig().hasGenericTypesDisabled());
        for (Class<?> c : new Class<?>[] {RawRecord.class, ValidRecord.class, OutboundRecord.class}) {
            TypeInformation<?> t = TypeInformation.of(c);
            assertFalse(t instanceof org.apache.flink.api.java.typeutils.GenericTypeInfo, c + " falls back to Kryo");
            assertTrue(t instanceof org.apache.flink.api.java.typeutils.PojoTypeInfo, c + " is a Flink POJO");
        }
    }
}
