package dev.tideway.barrier.serde;

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

/**
 * The barrier protocol's Kryo registrations (listed in {@code META-INF/services}): what travels in
 * exchange frames between actors and in the control messages between meta and the nodes. Ids are
 * fixed and never reused; a removed class leaves its id retired here.
 *
 * <pre>
 * 300 message.Message.Chunk         310 message.Mutation.Throttle
 * 301 message.Barrier               311 control.InjectBarrier
 * 302 message.BarrierKind (code)    312 control.BarrierCompleted
 * 303 epoch.EpochPair               313 control.NodeFailure
 * 304 message.Watermark             314 control.TableStatsDelta
 * 305 message.Mutation.Add          315 progress.ProgressBatch (its rows)
 * 306 message.Mutation.Stop
 * 307 message.Mutation.Update
 * 308 message.Mutation.Pause
 * 309 message.Mutation.Resume
 * </pre>
 */
public final class BarrierKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.BARRIER;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(300, Message.Chunk.class);
    r.addRecord(301, Barrier.class);
    r.addEnum(302, BarrierKind.class, BarrierKind::code, c -> BarrierKind.fromCode((byte) c));
    r.addRecord(303, EpochPair.class);
    r.addRecord(304, Watermark.class);
    r.addRecord(305, Mutation.Add.class);
    r.addRecord(306, Mutation.Stop.class);
    r.addRecord(307, Mutation.Update.class);
    r.addRecord(308, Mutation.Pause.class);
    r.addRecord(309, Mutation.Resume.class);
    r.addRecord(310, Mutation.Throttle.class);
    r.addRecord(311, InjectBarrier.class);
    r.addRecord(312, BarrierCompleted.class);
    r.addRecord(313, NodeFailure.class);
    r.addRecord(314, TableStatsDelta.class);
    r.add(315, ProgressBatch.class, ProgressBatchSerializer::new);
  }

  /**
   * Codes from here on are report kinds other than backfill states ({@code SinkDelivery} is the
   * first): a reader skips those it does not know, so a release may add one without breaking an
   * older meta. An unknown code below it (a backfill state) still fails the read.
   */
  static final byte FIRST_OTHER_REPORT = 16;

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
        int actorId = in.readInt();
        byte code = in.readByte();
        long a = in.readLong();
        long rows = in.readLong();
        if (code >= FIRST_OTHER_REPORT && !ProgressBatch.isKnownCode(code)) {
          continue; // a report kind of a newer release (a node upgraded first): not for us
        }
        p.add(actorId, code, a, rows);
      }
      return p;
    }
  }
}
