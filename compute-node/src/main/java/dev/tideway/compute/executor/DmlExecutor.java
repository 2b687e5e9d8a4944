package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.compute.executor.source.BarrierInbox;
import dev.tideway.protocol.compute.DmlBatch;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Turns the {@link DmlBatch}es written to a table into chunks, between the table's barriers (and a
 * connector's rows for a table with a source).
 *
 * <p>Barriers come either from an upstream executor (the constructor) or, for a table's own DML
 * actor, straight from the actor's {@link BarrierInbox} ({@link #onInbox}); then the executor is
 * the chain's leaf and waits on the channel's doorbell, which both a written batch and an injected
 * barrier ring.
 *
 * <p>Epoch of a batch: every batch enqueued before a barrier is taken from the inbox (or returned
 * by the upstream) is emitted before that barrier: on a barrier the executor first drains the
 * channel. So a batch the node acknowledged before a barrier was injected belongs to that barrier's
 * epoch and is visible once the epoch's checkpoint commits. Batches waiting before the first
 * barrier follow it (nothing is emitted before the first barrier). Taking a batch tells its writer
 * that epoch ({@link DmlChannel#poll(long)}): the node acknowledges the write with it. A batch is
 * cut into chunks of at most {@code chunkSize} rows but never between a {@code U-} and its {@code
 * U+}; rows keep their order.
 *
 * <p>Rows reach this actor already routed to the actor owning their vnode; each row's vnode is
 * checked against this actor's vnodes (a routing bug would otherwise put a row in state another
 * actor owns). For a table with a hidden {@code _row_id}, inserted rows whose id is NULL get one
 * from {@link DmlRowIds} first (ids of the epoch the row is emitted in).
 *
 * <p>Confined to the actor thread.
 */
public final class DmlExecutor implements Executor {
  /** Longest sleep without a ring before the inbox is checked again (a safety net only). */
  private static final long MAX_WAIT_NANOS = 100_000_000L;

  private final ExecutorInfo info;

  /** Where barriers come from: exactly one of {@code upstream} and {@code inbox} is non-null. */
  private final Executor upstream;

  private final BarrierInbox inbox;
  private final DmlChannel channel;
  private final Schema schema;
  private final VnodeHasher hasher;
  private final VnodeBitmap vnodes;
  private final int chunkSize;

  /** Null when the table has a primary key (no {@code _row_id} to fill). */
  private final DmlRowIds rowIds;

  private final int rowIdIndex;
  private final Deque<Message> pending = new ArrayDeque<>();
  private boolean started;

  /** The epoch rows taken now join: the {@code curr} of the last barrier (once started). */
  private long epoch;

  /**
   * A DML executor below {@code upstream}'s barriers (and rows), for a table with a primary key.
   *
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
    this(info, upstream, null, upstream.schema(), channel, distributionKey, -1, vnodes, chunkSize);
  }

  private DmlExecutor(
      ExecutorInfo info,
      Executor upstream,
      BarrierInbox inbox,
      Schema schema,
      DmlChannel channel,
      int[] distributionKey,
      int rowIdIndex,
      VnodeBitmap vnodes,
      int chunkSize) {
    Checks.checkArgument(chunkSize > 0, "%s: chunk size must be > 0, got %s", info, chunkSize);
    this.info = info;
    this.upstream = upstream;
    this.inbox = inbox;
    this.channel = channel;
    this.schema = schema;
    this.hasher = new VnodeHasher(schema.types(), distributionKey);
    this.vnodes = vnodes;
    this.chunkSize = chunkSize;
    this.rowIdIndex = rowIdIndex;
    this.rowIds = rowIdIndex < 0 ? null : new DmlRowIds(info.actorId(), rowIdIndex, hasher, vnodes);
  }

  /**
   * The leaf of a table's DML actor: barriers from {@code inbox}, rows from {@code channel}.
   *
   * @param rowIdIndex the hidden {@code _row_id} column filled for NULL inserts, or -1
   */
  public static DmlExecutor onInbox(
      ExecutorInfo info,
      BarrierInbox inbox,
      Schema schema,
      DmlChannel channel,
      int[] distributionKey,
      int rowIdIndex,
      VnodeBitmap vnodes,
      int chunkSize) {
    Checks.checkNotNull(inbox, info + ": barrier inbox");
    return new DmlExecutor(
        info, null, inbox, schema, channel, distributionKey, rowIdIndex, vnodes, chunkSize);
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
    try {
      return upstream != null ? nextBelowUpstream() : nextFromInbox();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(info + ": interrupted while waiting for rows", e);
    }
  }

  private Message nextBelowUpstream() {
    if (pending.isEmpty() && started) {
      DmlBatch batch = channel.poll(epoch);
      if (batch != null) {
        toChunks(batch);
      }
    }
    if (!pending.isEmpty()) {
      return pending.poll();
    }
    Message m = upstream.next();
    if (m instanceof Barrier b) {
      onBarrier(b);
      return pending.poll();
    }
    return m;
  }

  private Message nextFromInbox() throws InterruptedException {
    while (pending.isEmpty()) {
      Barrier b = started ? inbox.poll() : inbox.take();
      if (b != null) {
        onBarrier(b);
        continue;
      }
      DmlBatch batch = channel.poll(epoch);
      if (batch != null) {
        toChunks(batch);
        continue;
      }
      channel.awaitRing(MAX_WAIT_NANOS);
    }
    return pending.poll();
  }

  /**
   * Queues the batches written before {@code b}, then {@code b}; later rows get its epoch's ids.
   */
  private void onBarrier(Barrier b) {
    if (started) {
      DmlBatch batch;
      while ((batch = channel.poll(epoch)) != null) {
        toChunks(batch);
      }
    }
    started = true;
    epoch = b.curr();
    if (rowIds != null) {
      rowIds.enterEpoch(b.curr());
    }
    pending.add(b);
  }

  private void toChunks(DmlBatch batch) {
    StreamChunkBuilder b = null;
    for (int i = 0; i < batch.rows().size(); i++) {
      OpRow r = batch.rows().get(i);
      Row row = withRowId(r);
      int vnode = hasher.vnode(row);
      Checks.checkState(
          vnodes.contains(vnode),
          "%s: table %s row %s hashes to vnode %s, which this actor does not own (%s)",
          info,
          batch.tableId(),
          row,
          vnode,
          vnodes);
      // never cut between U- and its U+
      if (b != null && b.size() >= chunkSize && r.op() != Op.UPDATE_INSERT) {
        pending.add(Message.of(b.build()));
        b = null;
      }
      if (b == null) {
        b = new StreamChunkBuilder(schema.types(), Math.min(chunkSize + 1, batch.rows().size()));
      }
      try {
        b.append(r.op(), row);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            info + ": table " + batch.tableId() + " row " + row + ": " + e.getMessage(), e);
      }
    }
    if (b != null && b.size() > 0) {
      pending.add(Message.of(b.build()));
    }
  }

  private Row withRowId(OpRow r) {
    boolean insertSide = r.op() == Op.INSERT || r.op() == Op.UPDATE_INSERT;
    if (rowIds == null || !insertSide || r.row().get(rowIdIndex) != null) {
      return r.row();
    }
    return rowIds.assign(r.row());
  }
}
