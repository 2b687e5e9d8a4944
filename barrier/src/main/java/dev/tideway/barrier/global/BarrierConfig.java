package dev.tideway.barrier.global;

import dev.tideway.common.check.Checks;

/**
 * Barrier scheduling parameters (system params in meta).
 *
 * @param barrierIntervalMs time between periodic barriers (default 1000, min 10 for tests)
 * @param checkpointFrequency every n-th barrier is a checkpoint (default 1: all)
 * @param maxInflightBarriers no new barrier while this many are uncompleted
 * @param collectTimeoutMs the oldest in-flight barrier waiting longer than this starts recovery
 */
public record BarrierConfig(
    long barrierIntervalMs,
    int checkpointFrequency,
    int maxInflightBarriers,
    long collectTimeoutMs) {
  public static final BarrierConfig DEFAULT = new BarrierConfig(1000, 1, 10_000, 60_000);

  public BarrierConfig {
    Checks.checkArgument(
        barrierIntervalMs >= 10, "barrier_interval_ms must be >= 10, got %s", barrierIntervalMs);
    Checks.checkArgument(
        checkpointFrequency >= 1, "checkpoint_frequency must be >= 1, got %s", checkpointFrequency);
    Checks.checkArgument(
        maxInflightBarriers >= 1,
        "max_inflight_barriers must be >= 1, got %s",
        maxInflightBarriers);
    Checks.checkArgument(
        collectTimeoutMs > 0, "collect timeout must be > 0, got %s", collectTimeoutMs);
  }
}
