package dev.tideway.backfill.arrangement;

import dev.tideway.backfill.core.BackfillContext;
import dev.tideway.backfill.merge.UpstreamMergeBackfill;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;

/**
 * Arrangement backfill (the default kind): fills a new materialized view from an upstream table
 * whose changes arrive hash-distributed by the table's vnodes, so the actor may run on any node and
 * at any parallelism. Per vnode it keeps {@code NotStarted | InProgress(pos, rows) | Completed(pos,
 * rows)} in the StreamScan's state table (layout in {@link
 * dev.tideway.backfill.state.BackfillStateTable}), written with each barrier and committed with the
 * checkpoint.
 *
 * <p>The snapshot at {@code barrier.prev} is the committed upstream table plus an in-memory replica
 * of the upstream changes of the not-yet-committed epochs ({@link ReplicaSnapshotSource}); the
 * merge of snapshot and upstream is {@link UpstreamMergeBackfill}. Progress is reported through the
 * actor's {@code CreateMviewProgressReporter} before each barrier is yielded, with cumulative
 * counts restored from the state table after recovery.
 *
 * <p>Confined to the actor thread. Call {@link #close()} when the actor stops.
 */
public final class ArrangementBackfillExecutor implements Executor, AutoCloseable {
  private final UpstreamMergeBackfill loop;

  public ArrangementBackfillExecutor(BackfillContext ctx) {
    this.loop =
        new UpstreamMergeBackfill(
            ctx,
            new ReplicaSnapshotSource(ctx.store(), ctx.upstreamTable()),
            "arrangement backfill");
  }

  /** The per-vnode snapshot positions (for tools and benchmarks; actor thread only). */
  public dev.tideway.backfill.core.SnapshotScan scan() {
    return loop.scan();
  }

  @Override
  public Schema schema() {
    return loop.schema();
  }

  @Override
  public ExecutorInfo info() {
    return loop.info();
  }

  @Override
  public Message next() {
    return loop.next();
  }

  /** True once the finished state is persisted and the upstream passes through. */
  public boolean finished() {
    return loop.finished();
  }

  @Override
  public void close() {
    loop.close();
  }
}
