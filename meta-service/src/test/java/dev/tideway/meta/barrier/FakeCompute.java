package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.meta.catalog.CatalogState;
import dev.tideway.meta.metadata.FragmentGraph;
import dev.tideway.storage.api.CompactionRequest;
import dev.tideway.storage.api.CompactionResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Compute nodes for barrier tests, with a datagen-like backfill: each backfill actor consumes
 * {@code step} rows per barrier up to {@code totalPerActor}, reports cumulative counts, and makes
 * its count durable at each checkpoint. It outlives meta leaders (its state is the compute side's
 * persisted backfill state): {@link #reset} rolls every actor back to its durable count.
 *
 * <p>Builds complete at once unless a test sets {@link #builder}; compaction requests go to {@link
 * #compactor} (a follower storage in the version tests).
 *
 * <p>Fault model: after a reset, actors stay silent for {@value #SILENT_BARRIERS_AFTER_RESET}
 * barriers (rebuilding); {@link #lastGeneration} lets tests see recoveries. Synchronized: barrier
 * loops of two leaders may call it (an old one until it is closed).
 */
final class FakeCompute {
  private final int step;
  private final long totalPerActor;
  private final Map<Integer, Long> rows = new HashMap<>();
  private final Map<Integer, Long> durable = new HashMap<>();
  private long generation = -1;

  /**
   * Barriers after a reset during which actors are still rebuilding: they neither consume nor
   * report. A tracker not restored from persisted state would show 0% meanwhile.
   */
  private int silentBarriers;

  static final int SILENT_BARRIERS_AFTER_RESET = 5;
  final Map<Long, Integer> injects = new ConcurrentHashMap<>();

  /** The mutation of every injected barrier that carried one (once per node). */
  final List<dev.tideway.barrier.message.Mutation> mutations =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  FakeCompute(int step, long totalPerActor) {
    this.step = step;
    this.totalPerActor = totalPerActor;
  }

  synchronized void addBackfillActors(List<Integer> actors) {
    actors.forEach(a -> rows.putIfAbsent(a, 0L));
  }

  synchronized long lastGeneration() {
    return generation;
  }

  /** Answers builds; by default at once. Tests replace it to delay or fail builds. */
  volatile Function<FragmentGraph, CompletableFuture<Void>> builder =
      g -> CompletableFuture.completedFuture(null);

  /** Runs compaction requests; by default refuses them. */
  volatile BiFunction<String, CompactionRequest, CompletableFuture<CompactionResult>> compactor =
      (node, req) -> CompletableFuture.failedFuture(new IllegalStateException("no storage here"));

  /** Actors built by {@link ComputeClient#build} or a reset, and not dropped since. */
  final Set<Integer> builtActors = ConcurrentHashMap.newKeySet();

  /** Actors dropped without a barrier. */
  final Set<Integer> droppedActors = ConcurrentHashMap.newKeySet();

  /** Resets so far. */
  final AtomicInteger resets = new AtomicInteger();

  /** The client one leader's barrier loop talks to; answers go back to {@code replyTo}. */
  ComputeClient clientFor(Consumer<BarrierCompleted<String>> replyTo) {
    return new ComputeClient() {
      @Override
      public void inject(InjectBarrier req) {
        BarrierCompleted<String> c = answer(req);
        if (c != null) {
          replyTo.accept(c);
        }
      }

      @Override
      public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
        return builder
            .apply(graph)
            .thenRun(() -> graph.actors().forEach(a -> builtActors.add(a.actorId())));
      }

      @Override
      public void reset(long gen, long committedEpoch, CatalogState catalog) {
        synchronized (FakeCompute.this) {
          generation = gen;
          rows.putAll(durable);
          silentBarriers = SILENT_BARRIERS_AFTER_RESET;
        }
        resets.incrementAndGet();
        builtActors.clear();
        catalog
            .fragments()
            .values()
            .forEach(g -> g.actors().forEach(a -> builtActors.add(a.actorId())));
      }

      @Override
      public void drop(Set<Integer> actorIds) {
        builtActors.removeAll(actorIds);
        droppedActors.addAll(actorIds);
      }

      @Override
      public CompletableFuture<CompactionResult> compact(String node, CompactionRequest task) {
        return compactor.apply(node, task);
      }
    };
  }

  private synchronized BarrierCompleted<String> answer(InjectBarrier req) {
    if (req.generation() != generation) {
      return null; // a deposed leader's barrier: this node was reset by a newer one
    }
    injects.merge(req.barrier().curr(), 1, Integer::sum);
    if (req.barrier().mutation() != null) {
      mutations.add(req.barrier().mutation());
    }
    ProgressBatch batch = new ProgressBatch(4);
    if (silentBarriers > 0) {
      silentBarriers--;
      return new BarrierCompleted<>(
          req.nodeId(),
          req.generation(),
          req.barrier().epoch(),
          req.barrier().kind(),
          List.of(),
          List.of(),
          batch);
    }
    for (int actor : req.actorsToCollect()) {
      Long r = rows.get(actor);
      if (r == null) {
        continue;
      }
      if (req.barrier().kind() != BarrierKind.INITIAL) {
        r = Math.min(totalPerActor, r + step);
        rows.put(actor, r);
      }
      batch.add(
          actor,
          r == totalPerActor
              ? new BackfillState.Done(r)
              : new BackfillState.ConsumingUpstream(req.barrier().prev(), r));
      if (req.barrier().isCheckpoint()) {
        durable.put(actor, r);
      }
    }
    return new BarrierCompleted<>(
        req.nodeId(),
        req.generation(),
        req.barrier().epoch(),
        req.barrier().kind(),
        List.of(),
        List.of(),
        batch);
  }
}
