package dev.tideway.barrier.message;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.RateLimiter;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A change to the running graph that rides on a barrier and takes effect exactly at it. Every
 * mutation except {@link Resume} forces the barrier carrying it to be a checkpoint, so the change
 * is durable together with the state it affects.
 */
public sealed interface Mutation
    permits Mutation.Add,
        Mutation.Stop,
        Mutation.Update,
        Mutation.Pause,
        Mutation.Resume,
        Mutation.Throttle {

  /** True when the barrier carrying this mutation must be a checkpoint. */
  default boolean forcesCheckpoint() {
    return true;
  }

  /**
   * New actors start with this barrier.
   *
   * @param actors the new actor ids
   * @param upstreamActors for each new actor, the actors it receives from (its merge inputs)
   * @param splits for each new source actor, the source splits it owns
   * @param paused whether the new actors start paused (the cluster is paused)
   */
  record Add(
      Set<Integer> actors,
      Map<Integer, List<Integer>> upstreamActors,
      Map<Integer, List<String>> splits,
      boolean paused)
      implements Mutation {
    public Add {
      Checks.checkArgument(!actors.isEmpty(), "Add mutation needs at least one actor");
      actors = Set.copyOf(actors);
      upstreamActors = Map.copyOf(upstreamActors);
      splits = Map.copyOf(splits);
    }
  }

  /** These actors stop after this barrier; they collect it and then exit. */
  record Stop(Set<Integer> actors) implements Mutation {
    public Stop {
      Checks.checkArgument(!actors.isEmpty(), "Stop mutation needs at least one actor");
      actors = Set.copyOf(actors);
    }
  }

  /**
   * Rewires running actors (rescale): new dispatcher outputs and vnode ownership.
   *
   * @param dispatcherOutputs for each actor whose dispatcher changes, its new downstream actors
   * @param vnodeBitmaps for each actor whose vnodes change, the vnodes it owns from now on (copied)
   */
  record Update(Map<Integer, List<Integer>> dispatcherOutputs, Map<Integer, BitSet> vnodeBitmaps)
      implements Mutation {
    public Update {
      dispatcherOutputs = Map.copyOf(dispatcherOutputs);
      var copy = new java.util.HashMap<Integer, BitSet>();
      vnodeBitmaps.forEach((k, v) -> copy.put(k, (BitSet) v.clone()));
      vnodeBitmaps = Map.copyOf(copy);
    }

    /** The vnodes of {@code actorId} after this update (a copy), or null when unchanged. */
    public BitSet vnodesOf(int actorId) {
      BitSet b = vnodeBitmaps.get(actorId);
      return b == null ? null : (BitSet) b.clone();
    }
  }

  /** Sources stop emitting data after this barrier; barriers keep flowing. */
  record Pause() implements Mutation {}

  /** Sources resume after a {@link Pause}. The only mutation that does not force a checkpoint. */
  record Resume() implements Mutation {
    @Override
    public boolean forcesCheckpoint() {
      return false;
    }
  }

  /**
   * Rate limits per actor, in rows per second: {@code 0} pauses the actor's backfill or source,
   * {@link #UNLIMITED} removes the limit.
   */
  record Throttle(Map<Integer, Long> rowsPerSecondByActor) implements Mutation {
    /** Removes an actor's rate limit (the limiter's own {@link RateLimiter#UNLIMITED}). */
    public static final long UNLIMITED = RateLimiter.UNLIMITED;

    public Throttle {
      Checks.checkArgument(!rowsPerSecondByActor.isEmpty(), "Throttle mutation names no actor");
      rowsPerSecondByActor.forEach(
          (actor, rate) ->
              Checks.checkArgument(
                  rate >= 0 || rate == UNLIMITED,
                  "actor %s: rate limit must be >= 0 or UNLIMITED, got %s",
                  actor,
                  rate));
      rowsPerSecondByActor = Map.copyOf(rowsPerSecondByActor);
    }
  }
}
