package dev.tideway.frontend.meta;

import dev.tideway.common.row.Row;
import java.util.List;

/** Reads a table's rows as of a committed epoch (batch SELECT's storage access). */
public interface BatchReader {
  /** All rows of {@code tableId} (all columns, hidden ones included) visible at {@code epoch}. */
  List<Row> scan(int tableId, long epoch);
}
