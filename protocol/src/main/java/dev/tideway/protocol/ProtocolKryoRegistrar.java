package dev.tideway.protocol;

import com.esotericsoftware.kryo.serializers.OptionalSerializers;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrar;
import dev.tideway.common.serde.KryoRegistrations;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.DispatchSpec;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.MetaProtocol;
import java.util.OptionalLong;

/**
 * Kryo ids of the protocol's messages: frontend ↔ meta requests and the DDL commands and progress
 * they carry, and the requests meta and frontends send compute nodes with the nodes' answers. Ids
 * are never reused; a removed class leaves its id retired here.
 *
 * <pre>
 * 1000..1009 MetaProtocol requests and answer
 * 1010..1029 meta DdlCommand records and their enums
 * 1030..1039 JobProgress and its enums, OptionalLong
 * 1040..1059 ComputeRequest records, ActorSpec, DispatchSpec
 * 1060..1069 ComputeEvent records
 * </pre>
 *
 * Enums without a fixed code ({@link JobPhase}, {@link BackfillMode}) travel by ordinal: they are
 * wire-only (never persisted) and every process of a cluster runs the same build.
 */
public final class ProtocolKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.PROTOCOL;
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
    r.addRecord(1015, DdlCommand.CreateUser.class);
    r.addRecord(1016, DdlCommand.AlterUser.class);
    r.addEnum(1020, ObjectKind.class, ObjectKind::code, ObjectKind::fromCode);
    r.addEnum(1021, CreateType.class, CreateType::code, CreateType::fromCode);

    r.addRecord(1030, JobProgress.class);
    r.addEnum(1031, JobPhase.class, Enum::ordinal, i -> JobPhase.values()[i]);
    r.addEnum(1032, BackfillMode.class, Enum::ordinal, i -> BackfillMode.values()[i]);
    r.add(1033, OptionalLong.class, OptionalSerializers.OptionalLongSerializer::new);

    r.addRecord(1040, ComputeRequest.BuildActors.class);
    r.addRecord(1041, ComputeRequest.Inject.class);
    r.addRecord(1042, ComputeRequest.DropActors.class);
    r.addRecord(1043, ComputeRequest.ResetForRecovery.class);
    r.addRecord(1044, ActorSpec.class);
    r.addRecord(1045, DispatchSpec.class);
    r.addRecord(1046, ComputeRequest.WriteDml.class);
    r.addRecord(1047, ComputeRequest.Compact.class);
    r.addRecord(1048, ComputeRequest.GetExpressionErrors.class);
    r.addRecord(1049, ExpressionErrorCount.class);

    r.addRecord(1060, ComputeEvent.Completed.class);
    r.addRecord(1061, ComputeEvent.Failed.class);
    r.addRecord(1062, ComputeEvent.Ack.class);
    r.addRecord(1063, ComputeEvent.CommandFailed.class);
    r.addRecord(1064, ComputeEvent.DmlWritten.class);
    r.addRecord(1065, ComputeEvent.Compacted.class);
    r.addRecord(1066, ComputeEvent.ExpressionErrors.class);
  }
}
