package dev.tideway.storage.api;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The meta side of the state store: commits, compaction, vacuum and change-log retention. Every
 * call is executed in order on the engine's single version thread. Thread-safe.
 */
public interface VersionService {
  /**
   * Makes the synced data of {@code epoch} visible: its SSTs enter the version and {@code
   * statsDelta} is added to the table stats, atomically and durably. The only way data becomes
   * visible to committed reads. Epochs must rise.
   */
  void commitEpoch(long epoch, List<SstInfo> ssts, Map<Integer, TableStats> statsDelta);

  /** Keeps the change log of {@code tableId} readable from {@code fromEpoch} on. */
  void registerChangeLog(int tableId, long fromEpoch);

  /** Lets compaction drop changes before {@code epoch} (or all when {@code epoch} is negative). */
  void releaseChangeLog(int tableId, long epoch);

  /**
   * Drops these tables durably: their stats leave the version at once, SSTs holding only their keys
   * leave it too, and compaction deletes their keys from shared SSTs; {@link #deleteSsts} (or
   * {@link #vacuum}) then removes the files. Call it once no writer of the tables runs any more.
   * Idempotent. Table ids must never be reused.
   */
  default void dropTables(Collection<Integer> tableIds) {
    throw new UnsupportedOperationException("this state store cannot drop tables");
  }

  /** The tables this store ever dropped. */
  default Set<Integer> droppedTables() {
    return Set.of();
  }

  /** Runs compaction until nothing is due (or, with {@code full}, once over every SST). */
  void compactNow(boolean full);

  /** Deletes SST files no version, pinned reader or pending write references; returns how many. */
  int vacuum();

  /** A short description of the current version, for logs and the CLI. */
  String describeVersion();

  /** The id of the current version (0 for a new store). */
  default long versionId() {
    return 0;
  }

  /**
   * Picks the next compaction over the current version ({@code full}: every SST into the bottom
   * level), collapsing key versions at or below {@code min(safeEpoch, oldest local pin)}. Empty
   * when nothing is due. Pure: the task runs elsewhere ({@link StateStore#compact}).
   */
  default Optional<CompactionJob> pickCompaction(long safeEpoch, boolean full) {
    return Optional.empty();
  }

  /**
   * Applies a compaction result durably (a new version without its inputs, with its outputs and the
   * stats it subtracts). False, changing nothing, when an input is no longer in the version
   * (another compaction took it): the outputs are then garbage for {@link #deleteSsts}.
   */
  default boolean applyCompaction(CompactionOutcome outcome) {
    throw new UnsupportedOperationException("this state store cannot apply compactions");
  }

  /**
   * SST objects in the store that neither the current version, a reader pinned in this process, nor
   * a write running in this process references. A file written by another process and not yet
   * committed is listed too: delete only what stayed unreferenced for a grace period.
   */
  default Set<Long> unreferencedSsts() {
    return Set.of();
  }

  /** Deletes these SSTs, skipping any that became referenced meanwhile; returns how many. */
  default int deleteSsts(Collection<Long> sstIds) {
    return 0;
  }
}
