package dev.tideway.meta.barrier;

import dev.tideway.common.check.Checks;

/**
 * When the next recovery may start: the first of a streak at once, each further one after an
 * exponentially growing, capped delay. A checkpoint committed after a recovery ends the streak.
 * Pure arithmetic over the caller's clock readings; confined to the barrier loop's thread.
 *
 * @param initialMs the delay before the second recovery of a streak
 * @param maxMs the cap
 * @param multiplier growth per further recovery ({@code >= 1})
 */
public record RecoveryBackoff(long initialMs, long maxMs, double multiplier) {
  public static final RecoveryBackoff DEFAULT = new RecoveryBackoff(500, 30_000, 2.0);

  public RecoveryBackoff {
    Checks.checkArgument(
        initialMs >= 0, "recovery backoff initial must be >= 0, got %s", initialMs);
    Checks.checkArgument(
        maxMs >= initialMs, "recovery backoff max %s below initial %s", maxMs, initialMs);
    Checks.checkArgument(multiplier >= 1, "recovery backoff multiplier must be >= 1");
  }

  /** The delay before recovery number {@code streak} of a streak (0 = the first: no delay). */
  public long delayMs(int streak) {
    if (streak <= 0) {
      return 0;
    }
    double d = initialMs * Math.pow(multiplier, streak - 1);
    return (long) Math.min(maxMs, d);
  }
}
