package dev.tideway.barrier.progress;

/**
 * Where a creating job stands. Precedence when several apply: DONE, FINISHING, PAUSED, STALLED,
 * THROTTLED, LOG_STORE, SNAPSHOT.
 */
public enum JobPhase {
  /** Reading the snapshot (or the source). */
  SNAPSHOT,
  /** Snapshot backfill: snapshot read, catching up on the upstream change log. */
  LOG_STORE,
  /** Every actor finished; waiting for a checkpoint commit to make the job visible. */
  FINISHING,
  /** Committed at a checkpoint: the job is created. */
  DONE,
  /** Paused by a Pause mutation or a rate limit of 0. */
  PAUSED,
  /** A rate limit slows the backfill. */
  THROTTLED,
  /** No progress for longer than the stall threshold; see the stalled reason. */
  STALLED
}
