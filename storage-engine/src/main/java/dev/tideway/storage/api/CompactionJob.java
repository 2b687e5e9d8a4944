package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compaction to run, as the public API describes it (the meta leader picks it, a compute node
 * runs it through {@link StateStore#runCompaction}): merge {@code inputs} (level → SSTs) into
 * {@code targetLevel}. Versions at or below {@code safeEpoch} collapse to the newest one per key
 * (tables in {@code changeLogs} keep theirs from their retained start epoch on); tombstones go too
 * when {@code bottom} (no deeper level holds keys of the range); keys of {@code droppedTables} go.
 * The wire form of a {@link CompactionRequest} (the compute node's {@code Compact} command).
 *
 * @param inputs the SSTs merged, by level
 * @param targetLevel where the output goes
 * @param bottom no level below the target holds keys of the inputs
 * @param safeEpoch no reader needs versions at or below it except the newest per key
 * @param changeLogs for each table whose change log is retained, the first retained epoch
 * @param droppedTables tables whose every key the rewrite deletes
 */
public record CompactionJob(
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs,
    Set<Integer> droppedTables) {
  public CompactionJob {
    Map<Integer, List<SstInfo>> copy = new java.util.HashMap<>();
    inputs.forEach((level, ssts) -> copy.put(level, List.copyOf(ssts)));
    inputs = Map.copyOf(copy);
    changeLogs = Map.copyOf(changeLogs);
    droppedTables = Set.copyOf(droppedTables);
  }

  /** A job that deletes no dropped table's keys. */
  public CompactionJob(
      Map<Integer, List<SstInfo>> inputs,
      int targetLevel,
      boolean bottom,
      long safeEpoch,
      Map<Integer, Long> changeLogs) {
    this(inputs, targetLevel, bottom, safeEpoch, changeLogs, Set.of());
  }

  /** The same work as a {@link CompactionRequest} (what {@link StateStore#compact} runs). */
  public CompactionRequest toRequest(long taskId) {
    return new CompactionRequest(
        taskId, 0, inputs, targetLevel, bottom, safeEpoch, changeLogs, droppedTables);
  }

  /** A request's work as a job (the compute node's wire form). */
  public static CompactionJob of(CompactionRequest r) {
    return new CompactionJob(
        r.inputs(), r.targetLevel(), r.bottom(), r.safeEpoch(), r.changeLogs(), r.droppedTables());
  }
}
