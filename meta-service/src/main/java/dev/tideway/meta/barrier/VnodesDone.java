package dev.tideway.meta.barrier;

import dev.tideway.barrier.progress.BackfillVnodes;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many of each backfilling actor's vnodes have exhausted their snapshot, as the last commit's
 * {@link BackfillVnodes} reports say. An actor reports with every barrier until its snapshot is
 * done, so the board is replaced at each commit: an actor that finished leaves it (its persisted
 * state says DONE, all its vnodes). Written on the barrier loop's thread, read from any thread.
 */
public final class VnodesDone implements BarrierObserver {
  /**
   * @param done owned vnodes whose snapshot is exhausted
   * @param owned vnodes the actor owns
   */
  public record Count(int done, int owned) {}

  private volatile Map<Integer, Count> byActor = Map.of();

  @Override
  public void onReportsCommitted(List<ProgressBatch> reports) {
    Map<Integer, Count> next = new HashMap<>();
    for (ProgressBatch b : reports) { // oldest first: a later report of an actor wins
      for (int i = 0; i < b.size(); i++) {
        if (b.code(i) == BackfillVnodes.CODE) {
          next.put(b.actorId(i), new Count((int) b.a(i), (int) b.rows(i)));
        }
      }
    }
    byActor = Map.copyOf(next);
  }

  /** The latest count of each backfilling actor, by actor id. */
  public Map<Integer, Count> byActor() {
    return byActor;
  }
}
