package dev.tideway.frontend.meta;

import dev.tideway.common.row.Row;
import java.util.List;

/** Reads a table's rows as of a committed epoch (batch SELECT's storage access). */
public interface BatchReader {
  /** All rows of {@code tableId} (all columns, hidden ones included) visible at {@code epoch}. */
  List<Row> scan(int tableId, long epoch);

  /**
   * The rows of {@code tableId} at {@code epoch} whose primary key lies in {@code range}, or more:
   * the caller applies its whole predicate to what comes back (see {@link PkRange}). A reader over
   * key-ordered storage reads only the range (a point lookup touches one key); this default scans
   * the whole table.
   */
  default List<Row> scan(int tableId, long epoch, PkRange range) {
    return scan(tableId, epoch);
  }
}
