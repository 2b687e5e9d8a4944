package dev.tideway.meta.barrier;

import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.SinkDelivery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each sink actor's delivery stood at the last checkpoint commit: the {@link SinkDelivery}
 * reports it sent with its barriers. A sink actor reports with every barrier it collects, so a
 * commit's reports name every running sink actor; the board is replaced at each commit, and the
 * actors of a dropped sink leave it with the first commit after the drop. Written on the barrier
 * loop's thread, read from any thread.
 */
public final class SinkDeliveries implements BarrierObserver {
  /**
   * @param epoch the newest epoch whose changes the sink's target holds (0: none yet)
   * @param records records the actor delivered since it started
   */
  public record Delivered(long epoch, long records) {}

  private volatile Map<Integer, Delivered> byActor = Map.of();

  @Override
  public void onReportsCommitted(List<ProgressBatch> reports) {
    Map<Integer, Delivered> next = new HashMap<>();
    for (ProgressBatch b : reports) { // oldest first: a later report of an actor wins
      for (int i = 0; i < b.size(); i++) {
        if (b.code(i) == SinkDelivery.CODE) {
          next.put(b.actorId(i), new Delivered(b.a(i), b.rows(i)));
        }
      }
    }
    byActor = Map.copyOf(next);
  }

  /** The latest delivery of each running sink actor, by actor id. */
  public Map<Integer, Delivered> byActor() {
    return byActor;
  }
}
