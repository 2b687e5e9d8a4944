package dev.tideway.compute.actor;

import dev.tideway.common.check.Checks;
import dev.tideway.compute.executor.HashJoinExecutor;

/**
 * How much decoded state a stateful executor keeps in memory between barriers (the node's {@code
 * tideway.compute.state} settings). Each executor trims its cache to the bound at barriers; state
 * beyond it stays in the state store and is read back on demand.
 *
 * @param aggGroups groups a HashAgg keeps decoded before evicting least recently used clean ones
 * @param joinUnits keys plus rows each HashJoin side keeps before evicting least recently used keys
 */
public record StateCaches(int aggGroups, long joinUnits) {
  /** The defaults of {@code reference.conf}: 65536 groups, 262144 keys plus rows. */
  public static final StateCaches DEFAULT =
      new StateCaches(65_536, HashJoinExecutor.DEFAULT_CACHE_UNITS);

  public StateCaches {
    Checks.checkArgument(
        aggGroups > 0, "tideway.compute.state.agg-cache-groups must be > 0, got %s", aggGroups);
    Checks.checkArgument(
        joinUnits > 0, "tideway.compute.state.join-cache-units must be > 0, got %s", joinUnits);
  }
}
