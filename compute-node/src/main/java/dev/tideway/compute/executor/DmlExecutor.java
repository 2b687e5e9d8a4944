package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.compute.executor.source.BarrierInbox;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Emits the chunks written to a table (through its {@link DmlChannel}) between the table's barriers
 * (and a connector's rows for a table with a source).
 *
 * <p>Barriers come either from an upstream executor (the constructor) or, for a table's own DML
 * actor, straight from the actor's {@link BarrierInbox} ({@link #onInbox}); then the executor is
 * the chain's leaf and waits on the channel's doorbell, which both a written batch and an injected
 * barrier ring.
 *
 * <p>Epoch of a chunk: every chunk enqueued before a barrier is taken from the inbox (or returned
 * by the upstream) is emitted before that barrier: on a barrier the executor first drains the
 * channel. Chunks waiting before the first barrier follow it (nothing is emitted before the first
 * barrier). Taking a chunk tells its writer the epoch it joined ({@link DmlChannel#poll(long)}):
 * the node acknowledges the write with it, and the rows are visible once that epoch's checkpoint
 * commits. A chunk larger than {@code chunkSize} rows is cut, never between a {@code U-} and its
 * {@code U+}; rows keep their order.
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
      StreamChunk chunk = channel.poll(epoch);
      if (chunk != null) {
        emit(chunk);
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
      StreamChunk chunk = channel.poll(epoch);
      if (chunk != null) {
        emit(chunk);
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
      StreamChunk chunk;
      while ((chunk = channel.poll(epoch)) != null) {
        emit(chunk);
      }
    }
    started = true;
    epoch = b.curr();
    if (rowIds != null) {
      rowIds.enterEpoch(b.curr());
    }
    pending.add(b);
  }

  /** Queues {@code chunk} (with row ids filled), checked against this actor's vnodes and cut. */
  private void emit(StreamChunk in) {
    StreamChunk chunk = rowIds == null ? in : withRowIds(in);
    int[] vn = new int[chunk.size()];
    hasher.vnodes(chunk, vn);
    for (int i = 0; i < vn.length; i++) {
      if (!vnodes.contains(vn[i])) {
        throw new IllegalStateException(
            info
                + ": table "
                + channel.tableId()
                + " row "
                + chunk.row(i)
                + " hashes to vnode "
                + vn[i]
                + ", which this actor does not own ("
                + vnodes
                + ")");
      }
    }
    if (chunk.size() <= chunkSize) {
      pending.add(Message.of(chunk));
      return;
    }
    StreamChunkBuilder b = null;
    for (int i = 0; i < chunk.size(); i++) {
      Op op = chunk.op(i);
      // never cut between U- and its U+
      if (b != null && b.size() >= chunkSize && op != Op.UPDATE_INSERT) {
        pending.add(Message.of(b.build()));
        b = null;
      }
      if (b == null) {
        b = new StreamChunkBuilder(schema.types(), Math.min(chunkSize + 1, chunk.size() - i));
      }
      b.appendRowFrom(op, chunk, i);
    }
    if (b != null && b.size() > 0) {
      pending.add(Message.of(b.build()));
    }
  }

  /** {@code chunk} with an id in every inserted row whose {@code _row_id} is NULL. */
  private StreamChunk withRowIds(StreamChunk chunk) {
    boolean any = false;
    for (int i = 0; i < chunk.size() && !any; i++) {
      any = needsId(chunk, i);
    }
    if (!any) {
      return chunk;
    }
    StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), chunk.size());
    for (int i = 0; i < chunk.size(); i++) {
      if (needsId(chunk, i)) {
        b.append(chunk.op(i), rowIds.assign(chunk.row(i)));
      } else {
        b.appendRowFrom(chunk.op(i), chunk, i);
      }
    }
    return b.build();
  }

  private boolean needsId(StreamChunk chunk, int i) {
    Op op = chunk.op(i);
    return (op == Op.INSERT || op == Op.UPDATE_INSERT)
        && chunk.isVisible(i)
        && chunk.column(rowIdIndex).isNull(i);
  }
}
