package dev.tideway.backfill.core;

import dev.tideway.common.row.Row;

/**
 * Live rows of one vnode of the upstream table at one snapshot, in key order, starting after a
 * position. Call {@link #next()} first; close it (it may pin a storage version).
 */
public interface SnapshotCursor extends AutoCloseable {
  boolean next();

  /** The full storage key ({@code table_id | vnode | pk}) of the current row. */
  byte[] key();

  /** The current row, all columns of the upstream table. */
  Row row();

  @Override
  void close();
}
