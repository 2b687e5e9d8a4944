package dev.tideway.backfill.core;

/** Opens snapshot cursors at a read position; what "the snapshot" is depends on the kind. */
public interface SnapshotReader {
  /**
   * Rows of {@code vnode} with storage key at or after {@code startKey} (inclusive) and before the
   * end of the vnode.
   */
  SnapshotCursor open(int vnode, byte[] startKey);
}
