package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

/**
 * What running a {@link CompactionJob} produced, the one result type: per level the SSTs removed
 * and added, and the exact (negative) stats delta of the dropped key versions, for the version
 * owner to apply ({@link VersionService#applyCompaction}) as a version delta. Nothing is visible
 * until the owner applies it; if it never does, the new files are vacuumed after the grace period.
 * Plain data, sent on the wire (Kryo ids 403 and 404, serialized by their components: never change
 * them).
 *
 * @param changes the level edits
 * @param statsDelta per table, what the dropped versions counted (negative)
 * @param safeEpoch the job's safe epoch
 * @param readBytes input bytes
 * @param writtenBytes output bytes
 * @param droppedKeys key versions dropped
 * @param rowsRead key versions read
 */
public record CompactionOutcome(
    List<LevelEdit> changes,
    Map<Integer, TableStats> statsDelta,
    long safeEpoch,
    long readBytes,
    long writtenBytes,
    long droppedKeys,
    long rowsRead) {
  public CompactionOutcome {
    changes = List.copyOf(changes);
    statsDelta = Map.copyOf(statsDelta);
  }

  /** One level's edit: SST ids removed from it, SSTs added to it. */
  public record LevelEdit(int level, List<Long> removed, List<SstInfo> added) {
    public LevelEdit {
      removed = List.copyOf(removed);
      added = List.copyOf(added);
    }
  }
}
