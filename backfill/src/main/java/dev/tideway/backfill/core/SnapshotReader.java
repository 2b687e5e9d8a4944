package dev.tideway.backfill.core;

/** Opens snapshot cursors; what "the snapshot" is depends on the kind. */
public interface SnapshotReader {
  /**
   * Rows with storage key in {@code [startKey, endKey)} (a run of vnodes) at {@link #readEpoch}.
   */
  SnapshotCursor open(byte[] startKey, byte[] endKey);

  /** The epoch whose table a cursor opened now reflects. */
  long readEpoch();
}
