package dev.tideway.compute.bench;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.compute.executor.source.SourceExecutor;
import dev.tideway.compute.executor.source.SplitReader;
import dev.tideway.compute.executor.source.StateTableSplitStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The benchmark's {@code Source} builder: the same {@link SourceExecutor} over nexmark splits as
 * the production builder, but each split reader flags when it is exhausted, so the driver knows
 * when to stop. Built on the benchmark's main thread; the flags are read from the driver thread
 * (volatile).
 */
final class TrackedNexmarkSource implements ExecutorBuilder {
  /** A reader that remembers that it was seen exhausted. */
  static final class Tracked implements SplitReader {
    private final SplitReader inner;
    private volatile boolean exhausted;

    Tracked(SplitReader inner) {
      this.inner = inner;
    }

    boolean exhausted() {
      return exhausted;
    }

    @Override
    public String splitId() {
      return inner.splitId();
    }

    @Override
    public Schema schema() {
      return inner.schema();
    }

    @Override
    public Batch read(long offset, int maxRows) {
      return inner.read(offset, maxRows);
    }

    @Override
    public boolean isExhausted(long offset) {
      boolean e = inner.isExhausted(offset);
      if (e) {
        exhausted = true;
      }
      return e;
    }
  }

  private final List<Tracked> readers = new ArrayList<>();

  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(StreamNode.Source.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    StreamNode.Source src = (StreamNode.Source) node.node();
    NexmarkConfig config = NexmarkConfig.parse(src.properties());
    List<SplitReader> mine = new ArrayList<>();
    for (SplitReader r : NexmarkSplitReader.allSplits(config)) {
      if (ctx.splits().contains(r.splitId())) {
        Tracked t = new Tracked(r);
        readers.add(t);
        mine.add(t);
      }
    }
    return new SourceExecutor(
        ctx.infoOf(node),
        mine,
        ctx.barrierInbox(),
        new StateTableSplitStateStore(ctx.stateStore(), src.stateTable().tableId()),
        ctx.clock(),
        new SourceExecutor.Options(config.maxChunkSize(), RateLimiter.UNLIMITED));
  }

  /** Whether every reader built so far has been seen exhausted. */
  boolean allExhausted() {
    for (Tracked t : readers) {
      if (!t.exhausted()) {
        return false;
      }
    }
    return !readers.isEmpty();
  }
}
