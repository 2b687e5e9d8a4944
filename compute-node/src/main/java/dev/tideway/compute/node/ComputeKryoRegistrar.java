package dev.tideway.compute.node;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrar;
import dev.tideway.common.serde.KryoRegistrations;
import dev.tideway.compute.exchange.ExchangeMessage;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import java.util.BitSet;

/**
 * The compute node's Kryo registrations (listed in {@code META-INF/services}). Ids are fixed and
 * never reused; a removed class leaves its id retired here.
 *
 * <pre>
 * 600..619  exchange: Frame, Credit
 * 620..639  control: BuildActors, Inject, DropActors, ResetForRecovery, ActorSpec, DispatchSpec,
 *           WriteDml, Compact
 * 640..659  events to meta: Completed, Failed, Ack, CommandFailed, DmlWritten, Compacted
 * 660..699  barrier-protocol classes the node sends (Message.Chunk, Barrier, mutations, epochs,
 *           InjectBarrier, BarrierCompleted, ...) and java.util.BitSet. The barrier module has no
 *           registrar yet; these move to its range (300..399) when it gets one, and then leave here.
 *           680..689 likewise hold storage-engine's SstInfo, TableStats, CompactionJob and
 *           CompactionOutcome (+ LevelEdit) until storage has one.
 * </pre>
 */
public final class ComputeKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.COMPUTE_NODE;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(600, ExchangeMessage.Frame.class);
    r.addRecord(601, ExchangeMessage.Credit.class);

    r.addRecord(620, ComputeCommand.BuildActors.class);
    r.addRecord(621, ComputeCommand.Inject.class);
    r.addRecord(622, ComputeCommand.DropActors.class);
    r.addRecord(623, ComputeCommand.ResetForRecovery.class);
    r.addRecord(624, ActorSpec.class);
    r.addRecord(625, DispatchSpec.class);
    r.addRecord(626, ComputeCommand.WriteDml.class);
    r.addRecord(627, ComputeCommand.Compact.class);

    r.addRecord(640, ComputeEvent.Completed.class);
    r.addRecord(641, ComputeEvent.Failed.class);
    r.addRecord(642, ComputeEvent.Ack.class);
    r.addRecord(643, ComputeEvent.CommandFailed.class);
    r.addRecord(644, ComputeEvent.DmlWritten.class);
    r.addRecord(645, ComputeEvent.Compacted.class);

    registerBarrierProtocol(r);
  }

  private static void registerBarrierProtocol(KryoRegistrations r) {
    r.addRecord(660, Message.Chunk.class);
    r.addRecord(661, Barrier.class);
    r.addEnum(662, BarrierKind.class, BarrierKind::code, c -> BarrierKind.fromCode((byte) c));
    r.addRecord(663, EpochPair.class);
    r.addRecord(664, Watermark.class);
    r.addRecord(665, Mutation.Add.class);
    r.addRecord(666, Mutation.Stop.class);
    r.addRecord(667, Mutation.Update.class);
    r.addRecord(668, Mutation.Pause.class);
    r.addRecord(669, Mutation.Resume.class);
    r.addRecord(670, Mutation.Throttle.class);
    r.addRecord(671, InjectBarrier.class);
    r.addRecord(672, BarrierCompleted.class);
    r.addRecord(673, NodeFailure.class);
    r.addRecord(674, TableStatsDelta.class);
    r.add(675, ProgressBatch.class, ProgressBatchSerializer::new);
    // storage-engine classes in BarrierCompleted (storage has no registrar yet either)
    r.addRecord(680, SstInfo.class);
    r.addRecord(681, TableStats.class);
    r.addRecord(682, CompactionJob.class);
    r.addRecord(683, CompactionOutcome.class);
    r.addRecord(684, CompactionOutcome.LevelEdit.class);
    r.add(690, BitSet.class, BitSetSerializer::new);
  }

  /** {@link BitSet} as its words (JDK internals are not reflectively accessible on Java 17). */
  static final class BitSetSerializer extends Serializer<BitSet> {
    @Override
    public void write(Kryo kryo, Output out, BitSet b) {
      long[] words = b.toLongArray();
      out.writeVarInt(words.length, true);
      out.writeLongs(words, 0, words.length);
    }

    @Override
    public BitSet read(Kryo kryo, Input in, Class<? extends BitSet> type) {
      int n = in.readVarInt(true);
      return BitSet.valueOf(in.readLongs(n));
    }
  }

  /** {@link ProgressBatch} as its rows {@code (actorId, code, a, rows)}. */
  static final class ProgressBatchSerializer extends Serializer<ProgressBatch> {
    @Override
    public void write(Kryo kryo, Output out, ProgressBatch p) {
      out.writeVarInt(p.size(), true);
      for (int i = 0; i < p.size(); i++) {
        out.writeInt(p.actorId(i));
        out.writeByte(p.code(i));
        out.writeLong(p.a(i));
        out.writeLong(p.rows(i));
      }
    }

    @Override
    public ProgressBatch read(Kryo kryo, Input in, Class<? extends ProgressBatch> type) {
      int n = in.readVarInt(true);
      ProgressBatch p = new ProgressBatch(Math.max(1, n));
      for (int i = 0; i < n; i++) {
        p.add(in.readInt(), in.readByte(), in.readLong(), in.readLong());
      }
      return p;
    }
  }
}
