package dev.tideway.backfill.core;

import dev.tideway.common.fault.FailPoints;

/** The fail points of the backfill executors, for tests that crash a backfill actor. */
public final class BackfillFaults {
  /** Hit before each snapshot read: failing it crashes the backfill actor between two reads. */
  public static final String BEFORE_SNAPSHOT_READ =
      FailPoints.declare("backfill.before-snapshot-read");

  private BackfillFaults() {}
}
