package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
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
 * <p>Rate limits: a backfill actor consumes {@code min(step, rate)} rows per barrier. Its rate
 * comes from the {@code StreamScan}s of the graph it was built from (on build and reset, when
 * {@link #codec} can decode the graph), then from {@code Throttle} mutations, which take effect
 * after the barrier carrying them.
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

  /** Rate limit per backfill actor, rows per barrier; absent or negative: unlimited. */
  private final Map<Integer, Long> rates = new HashMap<>();

  /** Decodes fragment bodies for their scans' rate limits; null: graphs carry no limits here. */
  volatile PlanCodec codec;

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
  volatile BiFunction<String, CompactionJob, CompletableFuture<CompactionOutcome>> compactor =
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
        Map<Integer, Long> built = ratesOf(graph);
        return builder
            .apply(graph)
            .thenRun(
                () -> {
                  synchronized (FakeCompute.this) {
                    rates.putAll(built);
                  }
                })
            .thenRun(() -> graph.actors().forEach(a -> builtActors.add(a.actorId())));
      }

      @Override
      public void reset(long gen, long committedEpoch, CatalogState catalog) {
        synchronized (FakeCompute.this) {
          generation = gen;
          rows.putAll(durable);
          silentBarriers = SILENT_BARRIERS_AFTER_RESET;
          rates.clear();
          catalog.fragments().values().forEach(g -> rates.putAll(ratesOf(g)));
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
      public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
        return compactor.apply(node, job);
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
        long rate = rates.getOrDefault(actor, -1L);
        r = Math.min(totalPerActor, r + (rate < 0 ? step : Math.min(step, rate)));
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
    if (req.barrier().mutation() instanceof Mutation.Throttle t) {
      rates.putAll(t.rowsPerSecondByActor());
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

  /** The current rate limit of {@code actor}; -1 for none. */
  synchronized long rateOf(int actor) {
    return rates.getOrDefault(actor, -1L);
  }

  /** Consumed rows of {@code actor} so far (not necessarily durable). */
  synchronized long rowsOf(int actor) {
    return rows.getOrDefault(actor, 0L);
  }

  /** Each backfill actor of {@code g} and its scans' rate limit, when {@link #codec} reads it. */
  private Map<Integer, Long> ratesOf(FragmentGraph g) {
    PlanCodec c = codec;
    Map<Integer, Long> out = new HashMap<>();
    if (c == null || !g.planCodec().equals(c.name())) {
      return out;
    }
    for (FragmentGraph.Fragment f : g.fragments()) {
      long rate = scanRate(c.decode(f.body()));
      if (rate != NO_SCAN) {
        g.actorsOf(f.fragmentId()).forEach(a -> out.put(a.actorId(), rate));
      }
    }
    return out;
  }

  private static final long NO_SCAN = Long.MIN_VALUE;

  private static long scanRate(StreamPlanNode n) {
    if (n.node() instanceof StreamNode.StreamScan s) {
      return s.rateLimit();
    }
    for (StreamPlanNode in : n.inputs()) {
      long r = scanRate(in);
      if (r != NO_SCAN) {
        return r;
      }
    }
    return NO_SCAN;
  }
}
