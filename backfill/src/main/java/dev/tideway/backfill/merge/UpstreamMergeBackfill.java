package dev.tideway.backfill.merge;

import dev.tideway.backfill.core.BackfillContext;
import dev.tideway.backfill.core.BackfillFaults;
import dev.tideway.backfill.core.ChunkMarker;
import dev.tideway.backfill.core.SnapshotScan;
import dev.tideway.backfill.core.UpstreamReplica;
import dev.tideway.backfill.ratelimit.BackfillControl;
import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.backfill.upstream.Upstream;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The loop shared by arrangement and no-shuffle backfill: merges a pk-ordered snapshot read of the
 * upstream table with the live upstream, per vnode.
 *
 * <p>Overview (RisingWave's backfill algorithm, per vnode instead of one position per actor):
 *
 * <ol>
 *   <li>Between barriers, upstream messages and snapshot batches alternate: a ready upstream
 *       message is taken first (barriers are never starved), then one snapshot batch, and the
 *       snapshot is also read whenever the upstream has nothing ready. Snapshot rows are emitted at
 *       once as inserts; upstream chunks are buffered for the epoch.
 *   <li>On a barrier: if no snapshot row was read this epoch (and reads are allowed), read one
 *       (forward progress); emit the buffered upstream rows whose vnode is completed or whose pk is
 *       at or before the vnode's position, hiding the rest ({@link ChunkMarker}: the next snapshot,
 *       at a newer epoch, covers them); write the changed vnodes' state; report progress; seal the
 *       state table; apply the mutation; then yield the barrier. The snapshot then moves to the
 *       barrier's {@code prev}: the open cursor is carried there by merging the {@link
 *       UpstreamReplica}'s newer changes over it, since reopening a storage range is costly.
 *   <li>Once every vnode is completed the buffer drains unmarked and later chunks pass straight
 *       through; on the next barrier the completed states are persisted and {@code finish} is
 *       reported in that same epoch. From then on the executor passes its upstream through.
 * </ol>
 *
 * <p>Why it is exact: after each barrier, downstream holds every upstream row at or before each
 * vnode's position as of that barrier's {@code prev}; a snapshot batch extends that prefix at the
 * read epoch, and the buffered changes of the epoch, emitted after the batch, bring it to the next
 * epoch.
 *
 * <p>Confined to the actor thread (with a pumped upstream, the upstream executor runs on its pump
 * thread).
 */
public final class UpstreamMergeBackfill implements Executor, AutoCloseable {
  /** Replica size above which the open cursor is reopened instead of carried (bounds memory). */
  private static final long MAX_REPLICA_ENTRIES = 200_000;

  private final BackfillContext ctx;
  private final String name;
  private final SnapshotSource source;
  private final SnapshotScan scan;
  private final UpstreamReplica replica;
  private final ChunkMarker marker;
  private final BackfillControl control;
  private final Upstream upstream;
  private final Schema schema;
  private final List<DataType> outTypes;
  private final int[] outputColumns;
  private final ArrayDeque<Message> out = new ArrayDeque<>();
  private final List<StreamChunk> buffered = new ArrayList<>();

  private boolean started;

  /** {@code finished = true} is persisted (or was restored): pass the upstream through. */
  private boolean finished;

  private boolean ended;
  private long epochCurr;
  private long rowsThisEpoch;

  /** Alternation: after an upstream message, a snapshot batch gets the next turn. */
  private boolean snapshotTurn;

  public UpstreamMergeBackfill(BackfillContext ctx, SnapshotSource source, String name) {
    this.ctx = ctx;
    this.name = name;
    this.source = source;
    this.scan = new SnapshotScan(ctx.upstreamTable(), ctx.vnodeList());
    this.replica = new UpstreamReplica(ctx.upstreamTable());
    source.bindReplica(replica);
    this.marker = new ChunkMarker(ctx.upstreamTable());
    this.control =
        new BackfillControl(
            ctx.info().actorId(), ctx.clock(), ctx.options().initialRowsPerSecond());
    this.upstream = ctx.upstream();
    this.schema = ctx.upstreamTable().outputSchema();
    this.outTypes = schema.types();
    this.outputColumns = ctx.upstreamTable().outputColumns();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return ctx.info();
  }

  /** True once the finished state is persisted (or restored) and the upstream passes through. */
  public boolean finished() {
    return finished;
  }

  /** The snapshot side (positions per vnode). */
  public SnapshotScan scan() {
    return scan;
  }

  /** Snapshot rows emitted, restored counts included. */
  public long snapshotRows() {
    return scan.totalRows();
  }

  @Override
  public Message next() {
    while (out.isEmpty()) {
      if (ended) {
        return null;
      }
      step();
    }
    return out.poll();
  }

  private void step() {
    if (!started || finished) {
      handle(upstream.next());
      return;
    }
    if (snapshotTurn) {
      snapshotTurn = false;
      if (canRead()) {
        readBatch(ctx.options().chunkRows());
        return;
      }
    }
    Message m = upstream.poll();
    if (m != null) {
      handle(m);
      snapshotTurn = true;
    } else if (upstream.ended()) {
      ended = true;
    } else if (canRead()) {
      readBatch(ctx.options().chunkRows());
    } else {
      handle(upstream.next());
    }
  }

  private boolean canRead() {
    return !scan.exhausted() && control.available() > 0 && source.readable();
  }

  private void readBatch(long max) {
    FailPoints.hit(BackfillFaults.BEFORE_SNAPSHOT_READ);
    int n = (int) Math.min(max, Math.max(1, Math.min(control.available(), Integer.MAX_VALUE)));
    StreamChunkBuilder b = new StreamChunkBuilder(outTypes, n);
    int read = scan.read(source, b, n);
    control.consume(read);
    rowsThisEpoch += read;
    if (read > 0) {
      out.add(Message.of(b.build()));
    }
    if (scan.exhausted()) {
      flushBuffered();
    }
  }

  private void handle(Message m) {
    if (m == null) {
      ended = true;
    } else if (m instanceof Message.Chunk c) {
      onChunk(c.chunk());
    } else if (m instanceof Barrier b) {
      onBarrier(b);
    } else if (m instanceof Watermark w && finished) {
      for (int i = 0; i < outputColumns.length; i++) {
        if (outputColumns[i] == w.columnIndex()) {
          out.add(new Watermark(i, w.type(), w.value()));
        }
      }
    } // watermarks during backfill are dropped: the snapshot may still emit older rows
  }

  private void onChunk(StreamChunk chunk) {
    Checks.checkState(started, "%s: upstream chunk before the first barrier", ctx.info());
    if (finished) {
      out.add(Message.of(ctx.upstreamTable().project(chunk)));
      return;
    }
    replica.record(chunk, epochCurr, scan);
    if (scan.exhausted()) {
      flushBuffered();
      out.add(Message.of(ctx.upstreamTable().project(chunk)));
    } else {
      buffered.add(chunk);
    }
  }

  private void flushBuffered() {
    for (StreamChunk c : buffered) {
      StreamChunk marked = marker.mark(c, scan);
      if (marked != null) {
        out.add(Message.of(ctx.upstreamTable().project(marked)));
      }
    }
    buffered.clear();
  }

  private void start(Barrier b) {
    BackfillStateTable state = ctx.state();
    state.init(b.curr());
    for (int v : ctx.vnodeList()) {
      BackfillStateTable.Persisted p = state.load(v);
      if (p != null) {
        scan.restore(v, p.progress());
      }
    }
    source.start(b);
    control.onBarrier(b);
    epochCurr = b.curr();
    started = true;
    if (scan.exhausted()) {
      finished = true;
      ctx.reporter().finish(b.epoch(), scan.totalRows());
    } else {
      ctx.reporter().update(b.epoch(), b.prev(), scan.totalRows());
      ctx.reporter().reportVnodes(b.epoch(), scan.vnodesCompleted(), scan.vnodesOwned());
    }
  }

  private void onBarrier(Barrier b) {
    if (!started) {
      start(b);
      out.add(b);
      return;
    }
    if (!finished) {
      if (!scan.exhausted() && rowsThisEpoch == 0 && control.mayRead() && source.readable()) {
        readBatch(1); // at least one snapshot row per epoch, so the backfill always advances
      }
      flushBuffered();
      for (int v : scan.takeDirty()) {
        ctx.state().write(v, scan.progress(v), source.readEpoch());
      }
      if (scan.exhausted()) {
        finished = true;
        ctx.reporter().finish(b.epoch(), scan.totalRows());
      } else {
        ctx.reporter().update(b.epoch(), source.readEpoch(), scan.totalRows());
        ctx.reporter().reportVnodes(b.epoch(), scan.vnodesCompleted(), scan.vnodesOwned());
      }
      source.onBarrier(b);
      carryCursor();
    }
    ctx.state().commit(b.curr(), b.prev());
    control.onBarrier(b);
    checkVnodesUnchanged(b);
    rowsThisEpoch = 0;
    epochCurr = b.curr();
    out.add(b);
  }

  /**
   * Moves the open cursor to the new read epoch by merging the replica's changes after the cursor's
   * epoch (reopening a storage range is costly), or closes it when the replica grew past {@link
   * #MAX_REPLICA_ENTRIES}; then forgets replica epochs nothing needs any more: committed ones that
   * the open cursor already reflects.
   */
  private void carryCursor() {
    long read = source.readEpoch();
    if (scan.hasCursor()) {
      if (replica.size() > MAX_REPLICA_ENTRIES) {
        scan.invalidate();
      } else {
        scan.extend(
            replica.view(scan.cursorFrom(), scan.cursorTo(), scan.cursorEpoch(), read), read);
      }
    }
    replica.dropThrough(Math.min(ctx.store().committedEpoch(), read));
  }

  private void checkVnodesUnchanged(Barrier b) {
    if (finished || !(b.mutation() instanceof Mutation.Update u)) {
      return;
    }
    BitSet now = u.vnodesOf(ctx.info().actorId());
    Checks.checkState(
        now == null || now.equals(ctx.vnodes()),
        "%s: vnodes change from %s to %s during %s; rescale a creating job only after it finished",
        ctx.info(),
        ctx.vnodes(),
        now,
        name);
  }

  @Override
  public void close() {
    scan.close();
    source.close();
    upstream.close();
  }
}
