package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

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

  /** Runs compaction until nothing is due (or, with {@code full}, once over every SST). */
  void compactNow(boolean full);

  /** Deletes SST files no version, pinned reader or pending write references; returns how many. */
  int vacuum();

  /** A short description of the current version, for logs and the CLI. */
  String describeVersion();
}
