package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Compute nodes for barrier tests, with a datagen-like backfill: each backfill actor consumes
 * {@code step} rows per barrier up to {@code totalPerActor}, reports cumulative counts, and makes
 * its count durable at each checkpoint. It outlives meta leaders (its state is the compute side's
 * persisted backfill state): {@link #reset} rolls every actor back to its durable count.
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
      public void reset(long gen, long committedEpoch) {
        synchronized (FakeCompute.this) {
          generation = gen;
          rows.putAll(durable);
          silentBarriers = SILENT_BARRIERS_AFTER_RESET;
        }
      }
    };
  }

  private synchronized BarrierCompleted<String> answer(InjectBarrier req) {
    if (req.generation() != generation) {
      return null; // a deposed leader's barrier: this node was reset by a newer one
    }
    injects.merge(req.barrier().curr(), 1, Integer::sum);
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
