package dev.tideway.compute.executor.source;

import java.util.OptionalLong;

/**
 * Where a source keeps each split's position so recovery neither loses nor repeats rows: the offset
 * after the last row emitted before a barrier is written with the epoch that barrier closes, and
 * becomes durable exactly when that epoch is committed (with the rest of the job's state).
 *
 * <p>Implementations: a state table of {@code (split_id, offset)} rows in the storage engine, and
 * in tests an in-memory store that models commit and crash. Called from the source actor's thread
 * only.
 */
public interface SplitStateStore {
  /** Called on the source's first barrier, before any restore: writes go to {@code epoch}. */
  default void init(long epoch) {}

  /** Called on every later barrier after its persists: seals {@code prev}, opens {@code curr}. */
  default void seal(long curr, long prev) {}

  /** The offset of {@code splitId} as of the last committed epoch; empty for a new split. */
  OptionalLong restore(String splitId);

  /**
   * Records that {@code splitId} continues at {@code nextOffset} after {@code epoch}; durable once
   * {@code epoch} is committed.
   */
  void persist(long epoch, String splitId, long nextOffset);
}
