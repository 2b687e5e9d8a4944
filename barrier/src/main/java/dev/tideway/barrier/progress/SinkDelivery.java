package dev.tideway.barrier.progress;

/**
 * A sink actor's report with each barrier, in the same {@link ProgressBatch} as backfill progress:
 * code {@link #CODE}, {@code a} the newest epoch whose changes the sink's target holds (0 before
 * the first), {@code rows} the records the actor delivered since it started. Meta keeps the latest
 * per actor for the dashboard; the creating-job tracker skips these reports.
 */
public final class SinkDelivery {
  /** The report code: outside {@link BackfillState}'s codes, never reused. */
  public static final byte CODE = 16;

  private SinkDelivery() {}
}
