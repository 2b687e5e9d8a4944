package dev.tideway.barrier.progress;

/**
 * A backfill actor's vnodes, sent with each progress report beside its state, in the same {@link
 * ProgressBatch}: code {@link #CODE}, {@code a} the owned vnodes whose snapshot is exhausted,
 * {@code rows} the vnodes it owns. Meta keeps the latest per actor for the job page; the
 * creating-job tracker skips these reports (they are not rows).
 */
public final class BackfillVnodes {
  /**
   * The report code: outside {@link BackfillState}'s, {@link SinkDelivery}'s and {@link
   * NodeReport}'s.
   */
  public static final byte CODE = 21;

  private BackfillVnodes() {}
}
