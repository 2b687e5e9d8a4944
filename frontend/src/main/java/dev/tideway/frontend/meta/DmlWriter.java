package dev.tideway.frontend.meta;

import dev.tideway.common.row.Row;
import java.util.List;

/** Sends INSERT/UPDATE/DELETE rows to a table's DML path. */
public interface DmlWriter {
  /**
   * Deletes then inserts full rows (all columns, hidden ones included) in {@code tableId}; visible
   * to reads after the next flush.
   *
   * @return one acknowledgement per share of the rows (per compute node), naming the epoch the
   *     share joined; FLUSH checks them against recoveries ({@link MetaClient#lostWrites})
   */
  List<WriteAck> write(int tableId, List<Row> deletes, List<Row> inserts);
}
