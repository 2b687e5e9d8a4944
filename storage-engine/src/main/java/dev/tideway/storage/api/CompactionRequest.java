package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One compaction the version owner asks a node to run ({@link StateStore#compact}): merge {@code
 * inputs} (level → SSTs) into {@code targetLevel}. Key versions at or below {@code safeEpoch}
 * collapse to the newest per key (tables with a retained change log keep theirs from {@code
 * changeLogs}); tombstones go too when {@code bottom}; every key of a table in {@code
 * droppedTables} goes. Plain data, safe to send over the wire.
 *
 * @param taskId chosen by the owner; echoed in the result
 * @param versionId the version the task was picked from (for logs)
 */
public record CompactionRequest(
    long taskId,
    long versionId,
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs,
    Set<Integer> droppedTables) {
  public CompactionRequest {
    inputs = Map.copyOf(inputs);
    changeLogs = Map.copyOf(changeLogs);
    droppedTables = Set.copyOf(droppedTables);
  }

  /** A request that deletes no dropped table's keys. */
  public CompactionRequest(
      long taskId,
      long versionId,
      Map<Integer, List<SstInfo>> inputs,
      int targetLevel,
      boolean bottom,
      long safeEpoch,
      Map<Integer, Long> changeLogs) {
    this(taskId, versionId, inputs, targetLevel, bottom, safeEpoch, changeLogs, Set.of());
  }

  public long inputBytes() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::fileSize).sum();
  }

  public int inputCount() {
    return inputs.values().stream().mapToInt(List::size).sum();
  }
}
