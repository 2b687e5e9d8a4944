package dev.tideway.backfill.snapshot;

import dev.tideway.backfill.core.BackfillContext;
import dev.tideway.backfill.core.BackfillFaults;
import dev.tideway.backfill.core.SnapshotCursor;
import dev.tideway.backfill.core.SnapshotReader;
import dev.tideway.backfill.core.SnapshotScan;
import dev.tideway.backfill.core.StoreCursor;
import dev.tideway.backfill.logstore.LogStoreReader;
import dev.tideway.backfill.logstore.PendingEpochs;
import dev.tideway.backfill.ratelimit.BackfillControl;
import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.backfill.upstream.Upstream;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.types.Schema;
import dev.tideway.storage.api.KeyRange;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Snapshot backfill with log-store consumption. Reads the upstream table at one fixed snapshot
 * epoch {@code S} (the {@code prev} of its first barrier) without back-pressuring the upstream,
 * then emits the upstream's changes after {@code S} epoch by epoch from the table's change log
 * ({@code iterLog}) until it has caught up, then passes the upstream through.
 *
 * <p>Overview:
 *
 * <ol>
 *   <li>Upstream chunks are not emitted while catching up; each upstream epoch is remembered in
 *       {@link PendingEpochs} with its chunks, which are released once the epoch is committed (the
 *       change log then serves it), so memory holds only uncommitted epochs.
 *   <li>{@link SnapshotPhase.WaitingForSnapshot} until {@code S} is committed, then {@link
 *       SnapshotPhase.ConsumingSnapshot}: pk-ordered reads at {@code S} per vnode (one version pin
 *       held while reading), at least one row per epoch; {@code finish} is reported on the barrier
 *       that persists the completed vnodes.
 *   <li>{@link SnapshotPhase.ConsumingLogStore}: on each barrier, emit the oldest pending epochs
 *       (from the log, or their held chunks) — at most {@code maxLogEpochsPerBarrier} ({@code >=
 *       2}), so the lag shrinks while upstream adds one epoch per barrier — and report {@code
 *       updateLogStoreProgress(epoch, pending)}. When nothing is pending, report {@code
 *       finishConsumingLogStore} and switch to {@link SnapshotPhase.Following}.
 * </ol>
 *
 * <p>State (layout in {@link BackfillStateTable}, epoch column required): per vnode its position,
 * rows and finished flag, with {@code epoch = S} while reading the snapshot, then the change-log
 * epoch consumed through, then {@link BackfillStateTable#EPOCH_FOLLOWING}. Recovery resumes the
 * snapshot at {@code S} from the positions, or the log after the consumed epoch.
 *
 * <p>Storage gap: a read at {@code S} needs {@code S >= safeEpoch}; the open cursor pins {@code S}
 * while the actor runs, but after recovery the engine's global safe epoch may have passed {@code S}
 * (the retained change log keeps the data, yet {@code StateStore.iter} rejects the epoch). The read
 * then fails loudly with {@code EPOCH_OUT_OF_RANGE}.
 *
 * <p>Confined to the actor thread. Call {@link #close()} when the actor stops.
 */
public final class SnapshotBackfillExecutor implements Executor, AutoCloseable {
  private final BackfillContext ctx;
  private final SnapshotScan scan;
  private final BackfillControl control;
  private final Upstream upstream;
  private final LogStoreReader log;
  private final Schema schema;
  private final ArrayDeque<Message> out = new ArrayDeque<>();
  private final PendingEpochs pending = new PendingEpochs();
  private List<StreamChunk> epochChunks = new ArrayList<>();
  private SnapshotPhase phase;
  private long snapshotEpoch;
  private long lastClosedEpoch;
  private long rowsThisEpoch;
  private boolean started;
  private boolean ended;
  private boolean snapshotTurn;

  public SnapshotBackfillExecutor(BackfillContext ctx) {
    this.ctx = ctx;
    Checks.checkArgument(
        ctx.state().hasEpochColumn(),
        "%s: snapshot backfill needs the epoch column in its state table",
        ctx.info());
    this.scan = new SnapshotScan(ctx.upstreamTable(), ctx.vnodeList());
    this.control =
        new BackfillControl(
            ctx.info().actorId(), ctx.clock(), ctx.options().initialRowsPerSecond());
    this.upstream = ctx.upstream();
    this.log =
        new LogStoreReader(
            ctx.store(), ctx.upstreamTable(), ctx.vnodes(), ctx.options().chunkRows());
    this.schema = ctx.upstreamTable().outputSchema();
  }

  /** The per-vnode snapshot positions (for tools and benchmarks; actor thread only). */
  public dev.tideway.backfill.core.SnapshotScan scan() {
    return scan;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return ctx.info();
  }

  /** True once the actor caught up and passes its upstream through. */
  public boolean following() {
    return phase instanceof SnapshotPhase.Following;
  }

  /** The snapshot epoch. */
  public long snapshotEpoch() {
    return snapshotEpoch;
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
    if (!started || following()) {
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
    return phase instanceof SnapshotPhase.ConsumingSnapshot
        && !scan.exhausted()
        && control.available() > 0;
  }

  private final SnapshotReader reader =
      new SnapshotReader() {
        @Override
        public SnapshotCursor open(byte[] startKey, byte[] endKey) {
          return new StoreCursor(
              ctx.store().iter(KeyRange.of(startKey, endKey), snapshotEpoch), ctx.upstreamTable());
        }

        @Override
        public long readEpoch() {
          return snapshotEpoch;
        }
      };

  private void readBatch(long max) {
    FailPoints.hit(BackfillFaults.BEFORE_SNAPSHOT_READ);
    int n = (int) Math.min(max, Math.max(1, Math.min(control.available(), Integer.MAX_VALUE)));
    StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), n);
    int read = scan.read(reader, b, n);
    control.consume(read);
    rowsThisEpoch += read;
    if (read > 0) {
      out.add(Message.of(b.build()));
    }
  }

  private void handle(Message m) {
    if (m == null) {
      ended = true;
    } else if (m instanceof Message.Chunk c) {
      Checks.checkState(started, "%s: upstream chunk before the first barrier", ctx.info());
      if (following()) {
        out.add(Message.of(ctx.upstreamTable().project(c.chunk())));
      } else {
        epochChunks.add(c.chunk());
      }
    } else if (m instanceof Barrier b) {
      onBarrier(b);
    } // watermarks are dropped: the emitted data lags the upstream until it follows
  }

  private void start(Barrier b) {
    BackfillStateTable state = ctx.state();
    state.init(b.curr());
    long persistedEpoch = -1;
    boolean allCompleted = true;
    for (int v : ctx.vnodeList()) {
      BackfillStateTable.Persisted p = state.load(v);
      if (p == null) {
        allCompleted = false;
        continue;
      }
      scan.restore(v, p.progress());
      allCompleted &= p.progress().isCompleted();
      Checks.checkState(
          persistedEpoch < 0 || persistedEpoch == p.epoch(),
          "%s: vnode %s persisted epoch %s but another vnode %s",
          ctx.info(),
          v,
          p.epoch(),
          persistedEpoch);
      persistedEpoch = p.epoch();
    }
    lastClosedEpoch = b.prev();
    if (persistedEpoch == BackfillStateTable.EPOCH_FOLLOWING) {
      phase = new SnapshotPhase.Following();
      ctx.reporter().finish(b.epoch(), scan.totalRows());
      ctx.reporter().finishConsumingLogStore(b.epoch());
    } else if (persistedEpoch < 0) {
      snapshotEpoch = b.prev(); // nothing emitted yet: start afresh at this barrier
      phase = new SnapshotPhase.WaitingForSnapshot(snapshotEpoch);
      ctx.reporter().update(b.epoch(), snapshotEpoch, 0);
    } else if (allCompleted) {
      phase = new SnapshotPhase.ConsumingLogStore(persistedEpoch);
      addRecoveredRange(persistedEpoch, b.prev());
      ctx.reporter().finish(b.epoch(), scan.totalRows());
    } else {
      snapshotEpoch = persistedEpoch;
      phase = new SnapshotPhase.WaitingForSnapshot(snapshotEpoch);
      addRecoveredRange(snapshotEpoch, b.prev());
      ctx.reporter().update(b.epoch(), snapshotEpoch, scan.totalRows());
      ctx.reporter().reportVnodes(b.epoch(), scan.vnodesCompleted(), scan.vnodesOwned());
    }
    control.onBarrier(b);
    started = true;
  }

  private void addRecoveredRange(long consumedEpoch, long committedEpoch) {
    if (committedEpoch > consumedEpoch) {
      pending.addLogRange(consumedEpoch, committedEpoch);
    }
  }

  private void onBarrier(Barrier b) {
    if (!started) {
      start(b);
      out.add(b);
      return;
    }
    if (!following()) {
      pending.addEpoch(lastClosedEpoch, b.prev(), epochChunks);
      epochChunks = new ArrayList<>();
      lastClosedEpoch = b.prev();
      pending.releaseCommitted(ctx.store().committedEpoch());
      if (phase instanceof SnapshotPhase.WaitingForSnapshot w
          && ctx.store().committedEpoch() >= w.snapshotEpoch()) {
        phase = new SnapshotPhase.ConsumingSnapshot(w.snapshotEpoch());
      }
      if (phase instanceof SnapshotPhase.ConsumingLogStore c) {
        onLogStoreBarrier(b, c.consumedEpoch());
      } else {
        onSnapshotBarrier(b);
      }
    }
    ctx.state().commit(b.curr(), b.prev());
    control.onBarrier(b);
    rowsThisEpoch = 0;
    out.add(b);
  }

  private void onSnapshotBarrier(Barrier b) {
    boolean reading = phase instanceof SnapshotPhase.ConsumingSnapshot;
    if (reading && !scan.exhausted() && rowsThisEpoch == 0 && control.mayRead()) {
      readBatch(1); // at least one snapshot row per epoch
    }
    for (int v : scan.takeDirty()) {
      ctx.state().write(v, scan.progress(v), snapshotEpoch);
    }
    if (reading && scan.exhausted()) {
      ctx.reporter().finish(b.epoch(), scan.totalRows());
      phase = new SnapshotPhase.ConsumingLogStore(snapshotEpoch);
      scan.close();
    } else {
      ctx.reporter().update(b.epoch(), snapshotEpoch, scan.totalRows());
      ctx.reporter().reportVnodes(b.epoch(), scan.vnodesCompleted(), scan.vnodesOwned());
    }
  }

  private void onLogStoreBarrier(Barrier b, long consumed) {
    long now = consumeLog(consumed);
    if (pending.isEmpty()) {
      phase = new SnapshotPhase.Following();
      writeAllVnodes(BackfillStateTable.EPOCH_FOLLOWING);
      ctx.reporter().finishConsumingLogStore(b.epoch());
    } else {
      if (now != consumed) {
        writeAllVnodes(now);
      }
      phase = new SnapshotPhase.ConsumingLogStore(now);
      ctx.reporter().updateLogStoreProgress(b.epoch(), pending.size());
    }
  }

  /** Emits the oldest pending epochs within this barrier's budget; returns the epoch reached. */
  private long consumeLog(long consumed) {
    int epochs = 0;
    int max = ctx.options().maxLogEpochsPerBarrier();
    while (!pending.isEmpty() && epochs < max && control.available() > 0) {
      PendingEpochs.Range first = pending.peek();
      List<StreamChunk> chunks;
      long to;
      if (!first.fromLog()) {
        pending.poll();
        chunks = new ArrayList<>();
        for (StreamChunk c : PendingEpochs.chunksOf(first)) {
          chunks.add(ctx.upstreamTable().project(c));
        }
        to = first.toInclusive();
        epochs++;
      } else {
        long from = PendingEpochs.firstEpoch(first);
        to = first.toInclusive();
        pending.poll();
        epochs++;
        while (!pending.isEmpty() && pending.peek().fromLog() && epochs < max) {
          to = pending.poll().toInclusive();
          epochs++;
        }
        chunks = log.read(from, to);
      }
      long rows = 0;
      for (StreamChunk c : chunks) {
        rows += c.cardinality();
        out.add(Message.of(c));
      }
      control.consume(rows);
      consumed = to;
    }
    return consumed;
  }

  private void writeAllVnodes(long epoch) {
    for (int v : ctx.vnodeList()) {
      ctx.state().write(v, scan.progress(v), epoch);
    }
  }

  @Override
  public void close() {
    scan.close();
    upstream.close();
  }
}
