package dev.tideway.storage.compaction;

import dev.tideway.storage.api.CompactionRequest;
import dev.tideway.storage.api.SstInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One compaction: merge {@code inputs} (level → SSTs) into {@code targetLevel}. Versions at or
 * below {@code safeEpoch} collapse to the newest one per key (tables with a retained change log use
 * {@code min(safeEpoch, retainFrom - 1)}); tombstones go too when {@code bottom} (no deeper level
 * holds keys of the task's range). Every key of a table in {@code droppedTables} goes.
 */
public record CompactionTask(
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs,
    Set<Integer> droppedTables) {
  public CompactionTask {
    inputs = Map.copyOf(inputs);
    changeLogs = Map.copyOf(changeLogs);
    droppedTables = Set.copyOf(droppedTables);
  }

  /** The task a public {@link CompactionRequest} describes. */
  public static CompactionTask of(CompactionRequest r) {
    return new CompactionTask(
        r.inputs(), r.targetLevel(), r.bottom(), r.safeEpoch(), r.changeLogs(), r.droppedTables());
  }

  /** This task in the public API's terms (to send to the node that runs it). */
  public CompactionRequest toRequest(long taskId, long versionId) {
    return new CompactionRequest(
        taskId, versionId, inputs, targetLevel, bottom, safeEpoch, changeLogs, droppedTables);
  }

  public long inputBytes() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::fileSize).sum();
  }

  public long inputRows() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::rowCount).sum();
  }
}
