package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One compaction, the one request type: the picker chooses it ({@link
 * VersionService#pickCompaction}, or a standalone store for itself), a node runs it ({@link
 * StateStore#compact}, the compute node's {@code Compact} command carries it on the wire), and its
 * answer is a {@link CompactionOutcome}. Merge {@code inputs} (level → SSTs) into {@code
 * targetLevel}. Versions at or below {@code safeEpoch} collapse to the newest one per key (tables
 * in {@code changeLogs} keep theirs from their retained start epoch on); tombstones go too when
 * {@code bottom} (no deeper level holds keys of the range); keys of {@code droppedTables} go. Plain
 * data, safe to send over the wire (Kryo id 402, serialized by its components: never change them).
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

  /** The input SSTs' bytes. */
  public long inputBytes() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::fileSize).sum();
  }

  /** The input SSTs' rows (key versions). */
  public long inputRows() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::rowCount).sum();
  }

  /** The number of input SSTs. */
  public int inputCount() {
    return inputs.values().stream().mapToInt(List::size).sum();
  }
}
