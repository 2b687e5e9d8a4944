package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;

/**
 * Tuning of the progress tracker.
 *
 * @param stallThresholdMs a job without progress for this long (epoch physical time) is STALLED
 * @param rateTimeConstantMs time constant of the rows/s EWMA
 */
public record ProgressConfig(long stallThresholdMs, long rateTimeConstantMs) {
  public static final ProgressConfig DEFAULT = new ProgressConfig(60_000, 10_000);

  public ProgressConfig {
    Checks.checkArgument(
        stallThresholdMs > 0, "stall threshold must be > 0, got %s", stallThresholdMs);
    Checks.checkArgument(
        rateTimeConstantMs > 0, "rate time constant must be > 0, got %s", rateTimeConstantMs);
  }
}
