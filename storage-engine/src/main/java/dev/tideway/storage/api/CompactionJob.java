package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

/**
 * A compaction to run, as the public API describes it (the meta leader picks it, a compute node
 * runs it through {@link StateStore#runCompaction}): merge {@code inputs} (level → SSTs) into
 * {@code targetLevel}. Versions at or below {@code safeEpoch} collapse to the newest one per key
 * (tables in {@code changeLogs} keep theirs from their retained start epoch on); tombstones go too
 * when {@code bottom} (no deeper level holds keys of the range).
 *
 * @param inputs the SSTs merged, by level
 * @param targetLevel where the output goes
 * @param bottom no level below the target holds keys of the inputs
 * @param safeEpoch no reader needs versions at or below it except the newest per key
 * @param changeLogs for each table whose change log is retained, the first retained epoch
 */
public record CompactionJob(
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs) {
  public CompactionJob {
    Map<Integer, List<SstInfo>> copy = new java.util.HashMap<>();
    inputs.forEach((level, ssts) -> copy.put(level, List.copyOf(ssts)));
    inputs = Map.copyOf(copy);
    changeLogs = Map.copyOf(changeLogs);
  }
}
