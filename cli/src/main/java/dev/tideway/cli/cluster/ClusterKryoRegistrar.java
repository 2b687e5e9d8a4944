package dev.tideway.cli.cluster;

import com.esotericsoftware.kryo.serializers.OptionalSerializers;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrar;
import dev.tideway.common.serde.KryoRegistrations;
import dev.tideway.meta.catalog.DdlCommand;
import dev.tideway.meta.metadata.CreateType;
import dev.tideway.meta.metadata.ObjectKind;
import java.util.OptionalLong;

/**
 * Kryo ids of the process wiring's messages: frontend ↔ meta requests and the meta DDL commands and
 * progress they carry. Ids are never reused; a removed class leaves its id retired here.
 *
 * <pre>
 * 1000..1009 MetaProtocol requests and answer
 * 1010..1029 meta DdlCommand records and their enums
 * 1030..1039 JobProgress and its enums, OptionalLong
 * </pre>
 *
 * Enums without a fixed code ({@link JobPhase}, {@link BackfillMode}) travel by ordinal: they are
 * wire-only (never persisted) and every process of a cluster runs the same build.
 */
public final class ClusterKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.CLUSTER;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(1000, MetaProtocol.Submit.class);
    r.addRecord(1001, MetaProtocol.AwaitCreated.class);
    r.addRecord(1002, MetaProtocol.GetProgress.class);
    r.addRecord(1003, MetaProtocol.Answer.class);
    r.addRecord(1004, MetaProtocol.SetBackfillRateLimit.class);

    r.addRecord(1010, DdlCommand.ReserveIds.class);
    r.addRecord(1011, DdlCommand.CreateStreamingJob.class);
    r.addRecord(1012, DdlCommand.Drop.class);
    r.addRecord(1013, DdlCommand.CancelJob.class);
    r.addRecord(1014, DdlCommand.CreateSource.class);
    r.addEnum(1020, ObjectKind.class, ObjectKind::code, ObjectKind::fromCode);
    r.addEnum(1021, CreateType.class, CreateType::code, CreateType::fromCode);

    r.addRecord(1030, JobProgress.class);
    r.addEnum(1031, JobPhase.class, Enum::ordinal, i -> JobPhase.values()[i]);
    r.addEnum(1032, BackfillMode.class, Enum::ordinal, i -> BackfillMode.values()[i]);
    r.add(1033, OptionalLong.class, OptionalSerializers.OptionalLongSerializer::new);
  }
}
