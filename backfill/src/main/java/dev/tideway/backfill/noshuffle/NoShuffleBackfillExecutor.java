package dev.tideway.backfill.noshuffle;

import dev.tideway.backfill.core.BackfillContext;
import dev.tideway.backfill.merge.UpstreamMergeBackfill;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;

/**
 * No-shuffle backfill: co-located one-to-one with its upstream actor (same vnodes, same node), it
 * reads the node's uncommitted data at {@code barrier.prev} straight from the shared buffer ({@link
 * SharedBufferSnapshotSource}), so it needs no replica of the upstream changes. The merge loop and
 * the per-vnode state (rescalable, unlike RisingWave's one position per actor) are those of {@link
 * UpstreamMergeBackfill}; the state layout is {@link
 * dev.tideway.backfill.state.BackfillStateTable}'s.
 *
 * <p>Confined to the actor thread. Call {@link #close()} when the actor stops.
 */
public final class NoShuffleBackfillExecutor implements Executor, AutoCloseable {
  private final UpstreamMergeBackfill loop;

  public NoShuffleBackfillExecutor(BackfillContext ctx) {
    this.loop =
        new UpstreamMergeBackfill(
            ctx,
            new SharedBufferSnapshotSource(ctx.store(), ctx.upstreamTable()),
            "no-shuffle backfill");
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

  public boolean finished() {
    return loop.finished();
  }

  @Override
  public void close() {
    loop.close();
  }
}
