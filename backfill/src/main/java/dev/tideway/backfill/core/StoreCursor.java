package dev.tideway.backfill.core;

import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.common.row.Row;
import dev.tideway.storage.api.StateIterator;

/** A {@link SnapshotCursor} over a storage iterator of the upstream table; decodes each value. */
public final class StoreCursor implements SnapshotCursor {
  private final StateIterator it;
  private final UpstreamTable table;

  public StoreCursor(StateIterator it, UpstreamTable table) {
    this.it = it;
    this.table = table;
  }

  @Override
  public boolean next() {
    return it.next();
  }

  @Override
  public byte[] key() {
    return it.key();
  }

  @Override
  public Row row() {
    return table.decodeValue(it.value());
  }

  @Override
  public void close() {
    it.close();
  }
}
