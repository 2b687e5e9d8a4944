package dev.tideway.barrier.progress;

import dev.tideway.barrier.epoch.EpochPair;

/**
 * Where a {@link CreateMviewProgressReporter} sends its reports: the node's local barrier manager,
 * which keeps them as side data of epoch {@code epoch.curr()} until that epoch is collected. Called
 * on the actor's thread; primitive arguments keep the per-barrier path allocation-free.
 */
public interface ProgressSink {
  /**
   * @param code a {@link BackfillState} code
   * @param a the consumed epoch or the pending barrier count
   * @param rows cumulative consumed rows
   */
  void reportProgress(EpochPair epoch, int actorId, byte code, long a, long rows);
}
