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
    long droppedKeys) {
  public CompactionResult {
    removedByLevel = Map.copyOf(removedByLevel);
    added = List.copyOf(added);
    statsDelta = Map.copyOf(statsDelta);
  }
}
