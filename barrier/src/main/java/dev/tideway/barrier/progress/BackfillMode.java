package dev.tideway.barrier.progress;

/** How a creating job backfills, which decides its denominator and its finish condition. */
public enum BackfillMode {
  /**
   * No-shuffle or arrangement backfill: the snapshot moves with each epoch, so the denominator is
   * recomputed from each committed version's stats; done when every actor is {@code Done}.
   */
  ARRANGEMENT,
  /**
   * Snapshot backfill: reads one snapshot epoch, then the upstream change log. The denominator is
   * frozen at the snapshot epoch; done when every actor drained its log store.
   */
  SNAPSHOT
}
