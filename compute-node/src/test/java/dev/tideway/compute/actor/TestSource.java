package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A test source: emits each barrier the node injects into its {@link BarrierInbox}, and between two
 * barriers {@code chunksPerEpoch} chunks of {@code rowsPerChunk} rows {@code (k BIGINT, v BIGINT)}
 * where {@code k} counts up from {@code firstKey} by {@code keyStep} and {@code v = k * 10}. No
 * data is emitted before the first barrier. {@link #kill()} makes the next {@code next()} throw.
 */
public final class TestSource implements Executor {
  public static final Schema SCHEMA = Schema.ofTypes(DataType.BIGINT, DataType.BIGINT);

  private final ExecutorInfo info;
  private final BarrierInbox inbox;
  private final int chunksPerEpoch;
  private final int rowsPerChunk;
  private final long keyStep;
  private final AtomicBoolean killed = new AtomicBoolean();
  private volatile long failAtEpoch = -1;
  private long nextKey;
  private int chunksLeft;
  private boolean started;
  private long emittedRows;

  public TestSource(
      ExecutorInfo info,
      BarrierInbox inbox,
      int chunksPerEpoch,
      int rowsPerChunk,
      long firstKey,
      long keyStep) {
    this.info = info;
    this.inbox = inbox;
    this.chunksPerEpoch = chunksPerEpoch;
    this.rowsPerChunk = rowsPerChunk;
    this.nextKey = firstKey;
    this.keyStep = keyStep;
  }

  /** Makes the next call to {@link #next()} throw (an actor crash). */
  public void kill() {
    killed.set(true);
  }

  /** Makes the source throw instead of emitting the barrier with {@code curr == epoch}. */
  public void failAtBarrier(long epoch) {
    failAtEpoch = epoch;
  }

  public long emittedRows() {
    return emittedRows;
  }

  @Override
  public Schema schema() {
    return SCHEMA;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    while (true) {
      if (killed.get()) {
        throw new IllegalStateException("test source of actor " + info.actorId() + " killed");
      }
      if (started && chunksLeft > 0) {
        chunksLeft--;
        return Message.of(chunk());
      }
      Barrier b;
      try {
        b = inbox.poll(20_000_000L);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ActorInterrupted("test source of actor " + info.actorId() + " interrupted", e);
      }
      if (b != null) {
        if (b.curr() == failAtEpoch) {
          throw new IllegalStateException(
              "test source of actor " + info.actorId() + " crashed at barrier " + b);
        }
        started = true;
        chunksLeft = chunksPerEpoch;
        return b;
      }
    }
  }

  private StreamChunk chunk() {
    StreamChunkBuilder cb = new StreamChunkBuilder(SCHEMA.types(), rowsPerChunk);
    for (int i = 0; i < rowsPerChunk; i++) {
      cb.append(Op.INSERT, Row.of(nextKey, nextKey * 10));
      nextKey += keyStep;
    }
    emittedRows += rowsPerChunk;
    return cb.build();
  }
}
