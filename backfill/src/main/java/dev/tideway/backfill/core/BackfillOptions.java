package dev.tideway.backfill.core;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;

/**
 * Tuning of a backfill executor.
 *
 * @param chunkRows most snapshot rows per emitted chunk (one read batch)
 * @param initialRowsPerSecond rate limit before any Throttle ({@link Mutation.Throttle#UNLIMITED}
 *     for none)
 * @param maxLogEpochsPerBarrier snapshot backfill: most change-log epochs consumed per barrier (at
 *     least 2, so the pending lag shrinks while upstream adds one epoch per barrier)
 */
public record BackfillOptions(
    int chunkRows, long initialRowsPerSecond, int maxLogEpochsPerBarrier) {
  public static final BackfillOptions DEFAULT =
      new BackfillOptions(1024, Mutation.Throttle.UNLIMITED, 1024);

  public BackfillOptions {
    Checks.checkArgument(chunkRows > 0, "chunk rows must be > 0, got %s", chunkRows);
    Checks.checkArgument(
        maxLogEpochsPerBarrier >= 2,
        "max log epochs per barrier must be >= 2 so the lag shrinks, got %s",
        maxLogEpochsPerBarrier);
  }

  public BackfillOptions withChunkRows(int rows) {
    return new BackfillOptions(rows, initialRowsPerSecond, maxLogEpochsPerBarrier);
  }

  public BackfillOptions withRate(long rowsPerSecond) {
    return new BackfillOptions(chunkRows, rowsPerSecond, maxLogEpochsPerBarrier);
  }
}
