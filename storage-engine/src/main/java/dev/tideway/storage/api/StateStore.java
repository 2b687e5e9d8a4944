package dev.tideway.storage.api;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The compute node's view of the state store: write handles per table, {@link #sync} of sealed
 * epochs, and reads of committed data at an epoch. Thread-safe.
 *
 * <p>Reads at epoch {@code E} see exactly the writes committed at or before {@code E}; {@code E}
 * must lie in {@code [safeEpoch, committedEpoch]}, else {@link
 * StorageException.Reason#EPOCH_OUT_OF_RANGE}.
 */
public interface StateStore {
  /** A new write handle for {@code tableId}. */
  LocalStateStore newLocal(int tableId);

  /**
   * Writes every write sealed at or before {@code epoch} (not synced before) to SSTs; completes
   * with the SSTs and stats delta to hand to {@code commitEpoch}. Runs on the upload pool.
   */
  CompletableFuture<SyncResult> sync(long epoch);

  /** Drops all uncommitted state of this node (recovery); its files are vacuumed later. */
  void clearUncommitted();

  /** The largest committed epoch. */
  long committedEpoch();

  /** The oldest epoch reads may ask for. */
  long safeEpoch();

  /** The committed value of {@code key} at {@code epoch}, or null. */
  byte[] get(byte[] key, long epoch);

  /** Committed live rows of {@code range} at {@code epoch}; close the iterator. */
  StateIterator iter(KeyRange range, long epoch);

  /**
   * The committed changes of a change-log table with epochs in {@code [fromEpoch, toEpoch]}, for
   * the given vnodes (null = all), in epoch order then key order. {@code fromEpoch} must not be
   * below the table's retained start.
   */
  List<LogEntry> iterLog(int tableId, BitSet vnodes, long fromEpoch, long toEpoch);

  /** Per-table stats of the committed version. */
  Map<Integer, TableStats> tableStats();

  /**
   * Follows the versions another process commits (multi-process stores): re-reads the version delta
   * log and checkpoints from the object store and publishes what is new, so committed reads and
   * {@link #committedEpoch()} reach it and the shared buffer drops what the new version holds. Call
   * it when the version owner announces a committed epoch; the owner makes a delta durable before
   * it announces it, so one refresh suffices.
   *
   * @return the committed epoch after the refresh
   * @throws StorageException {@code EPOCH_OUT_OF_RANGE} if the store still holds no version with
   *     {@code minCommittedEpoch} committed
   */
  default long refresh(long minCommittedEpoch) {
    long c = committedEpoch();
    if (c < minCommittedEpoch) {
      throw new StorageException(
          StorageException.Reason.EPOCH_OUT_OF_RANGE,
          "this state store cannot follow versions; committed "
              + Epochs.format(c)
              + " < "
              + Epochs.format(minCommittedEpoch));
    }
    return c;
  }

  /**
   * Runs a compaction rewrite the version owner picked ({@link VersionService#pickCompaction}):
   * reads the inputs, writes the survivors as new SSTs of this process's id space, and completes
   * with the outcome for the owner to apply. Changes no version here. A compute node runs its
   * {@code Compact} command's job through it.
   */
  default CompletableFuture<CompactionOutcome> compact(CompactionJob job) {
    return CompletableFuture.failedFuture(
        new UnsupportedOperationException("this state store cannot run compaction requests"));
  }
}
