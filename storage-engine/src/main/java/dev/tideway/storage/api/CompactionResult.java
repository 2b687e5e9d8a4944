package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

/**
 * What a node's compaction rewrite produced, for the version owner to apply with {@link
 * VersionService#applyCompaction}: the input SSTs to remove per level, the new SSTs of the target
 * level and the exact (negative) stats delta of the key versions it dropped. Nothing is visible
 * until the owner applies it; if it never does, the new files are vacuumed after the grace period.
 */
public record CompactionResult(
    long taskId,
    Map<Integer, List<Long>> removedByLevel,
    int targetLevel,
    List<SstInfo> added,
    Map<Integer, TableStats> statsDelta,
    long safeEpoch,
    long readBytes,
    long writtenBytes,
    long droppedKeys,
    long rowsRead) {
  public CompactionResult {
    removedByLevel = Map.copyOf(removedByLevel);
    added = List.copyOf(added);
    statsDelta = Map.copyOf(statsDelta);
  }

  /** A result without the count of key versions read. */
  public CompactionResult(
      long taskId,
      Map<Integer, List<Long>> removedByLevel,
      int targetLevel,
      List<SstInfo> added,
      Map<Integer, TableStats> statsDelta,
      long safeEpoch,
      long readBytes,
      long writtenBytes,
      long droppedKeys) {
    this(
        taskId,
        removedByLevel,
        targetLevel,
        added,
        statsDelta,
        safeEpoch,
        readBytes,
        writtenBytes,
        droppedKeys,
        0);
  }

  /** A node's {@link CompactionOutcome} of {@code request} as the owner applies it. */
  public static CompactionResult of(CompactionRequest request, CompactionOutcome o) {
    Map<Integer, List<Long>> removed = new java.util.TreeMap<>();
    List<SstInfo> out = new java.util.ArrayList<>();
    for (CompactionOutcome.LevelEdit e : o.changes()) {
      removed.computeIfAbsent(e.level(), k -> new java.util.ArrayList<>()).addAll(e.removed());
      out.addAll(e.added());
    }
    return new CompactionResult(
        request.taskId(),
        removed,
        request.targetLevel(),
        out,
        o.statsDelta(),
        o.safeEpoch(),
        o.readBytes(),
        o.writtenBytes(),
        o.droppedKeys(),
        o.rowsRead());
  }

  /** This result as level edits (the compute node's wire form). */
  public CompactionOutcome toOutcome() {
    List<CompactionOutcome.LevelEdit> edits = new java.util.ArrayList<>();
    removedByLevel.forEach(
        (level, ids) ->
            edits.add(
                new CompactionOutcome.LevelEdit(
                    level, ids, level == targetLevel ? added : List.of())));
    if (!removedByLevel.containsKey(targetLevel)) {
      edits.add(new CompactionOutcome.LevelEdit(targetLevel, List.of(), added));
    }
    return new CompactionOutcome(
        edits, statsDelta, safeEpoch, readBytes, writtenBytes, droppedKeys, rowsRead);
  }
}
