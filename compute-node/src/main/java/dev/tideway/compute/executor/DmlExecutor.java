package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Turns the {@link DmlBatch}es the frontend sends to a table into chunks, between the messages of
 * the table's upstream (its barriers, and a connector's rows for a table with a source).
 *
 * <p>Each pull first emits what is left of the current batch, then takes the next waiting batch
 * from the {@link DmlChannel}, and only when none waits pulls the upstream (which blocks until the
 * next barrier). So a batch joins the epoch open when the actor picks it up, and a batch is never
 * split across a barrier unless it is larger than the epoch's remaining chunks (rows keep their
 * order either way). Nothing is emitted before the first barrier.
 *
 * <p>Rows reach this actor already routed by {@link DmlRouter} to the actor owning their vnode;
 * each row's vnode is checked against this actor's vnodes (a routing bug would otherwise put a row
 * in state another actor owns).
 *
 * <p>Confined to the actor thread.
 */
public final class DmlExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor upstream;
  private final DmlChannel channel;
  private final Schema schema;
  private final VnodeHasher hasher;
  private final VnodeBitmap vnodes;
  private final int chunkSize;
  private final Deque<StreamChunk> pending = new ArrayDeque<>();
  private boolean started;

  /**
   * @param distributionKey the table's distribution key column indices (empty = singleton)
   * @param vnodes the vnodes this actor owns
   * @param chunkSize rows per emitted chunk at most
   */
  public DmlExecutor(
      ExecutorInfo info,
      Executor upstream,
      DmlChannel channel,
      int[] distributionKey,
      VnodeBitmap vnodes,
      int chunkSize) {
    Checks.checkArgument(chunkSize > 0, "%s: chunk size must be > 0, got %s", info, chunkSize);
    this.info = info;
    this.upstream = upstream;
    this.channel = channel;
    this.schema = upstream.schema();
    this.hasher = new VnodeHasher(schema.types(), distributionKey);
    this.vnodes = vnodes;
    this.chunkSize = chunkSize;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    if (started) {
      if (pending.isEmpty()) {
        DmlBatch batch = channel.poll();
        if (batch != null) {
          toChunks(batch);
        }
      }
      if (!pending.isEmpty()) {
        return Message.of(pending.poll());
      }
    }
    Message m = upstream.next();
    if (m instanceof Barrier) {
      started = true;
    }
    return m;
  }

  private void toChunks(DmlBatch batch) {
    StreamChunkBuilder b = null;
    for (int i = 0; i < batch.rows().size(); i++) {
      OpRow r = batch.rows().get(i);
      int vnode = hasher.vnode(r.row());
      Checks.checkState(
          vnodes.contains(vnode),
          "%s: table %s row %s hashes to vnode %s, which this actor does not own (%s)",
          info,
          batch.tableId(),
          r.row(),
          vnode,
          vnodes);
      // never cut between U- and its U+
      if (b != null && b.size() >= chunkSize && r.op() != Op.UPDATE_INSERT) {
        pending.add(b.build());
        b = null;
      }
      if (b == null) {
        b = new StreamChunkBuilder(schema.types(), Math.min(chunkSize + 1, batch.rows().size()));
      }
      try {
        b.append(r.op(), r.row());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            info + ": table " + batch.tableId() + " row " + r.row() + ": " + e.getMessage(), e);
      }
    }
    if (b != null && b.size() > 0) {
      pending.add(b.build());
    }
  }
}
