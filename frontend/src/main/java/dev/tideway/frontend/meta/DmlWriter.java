package dev.tideway.frontend.meta;

import dev.tideway.common.row.Row;
import java.util.List;

/**
 * Sends INSERT/UPDATE/DELETE rows to a table's DML path, one statement at a time: {@link #begin}
 * opens a statement's write, its rows stream in (full rows, hidden columns included) in the order
 * they should apply, and {@link Write#finish} waits for every acknowledgement. A writer may send
 * rows before the statement finishes (a statement of millions of rows streams through bounded
 * memory); they are visible to reads after the next flush.
 */
public interface DmlWriter {
  /** Opens a write into {@code tableId}. */
  Write begin(int tableId);

  /** One statement's write. Not thread-safe: the session's thread. */
  interface Write {
    /** Deletes {@code row} (by its primary key). */
    void delete(Row row);

    /** Inserts {@code row}. */
    void insert(Row row);

    /** Replaces {@code before} by {@code after} (an update pair where the two share a key). */
    void update(Row before, Row after);

    /** Rows handed to the cluster so far (they may be applied even if the statement fails). */
    long rowsSent();

    /**
     * Sends what is left and waits until every row was taken.
     *
     * @return one acknowledgement per (generation, epoch) the rows joined; FLUSH checks them
     *     against recoveries ({@link MetaClient#lostWrites})
     */
    List<WriteAck> finish();

    /** Gives up the write: nothing more is sent (what was sent may still apply). */
    void abort();
  }

  /** Deletes then inserts full rows in {@code tableId} as one statement. */
  default List<WriteAck> write(int tableId, List<Row> deletes, List<Row> inserts) {
    Write w = begin(tableId);
    try {
      deletes.forEach(w::delete);
      inserts.forEach(w::insert);
      return w.finish();
    } catch (RuntimeException e) {
      w.abort();
      throw e;
    }
  }
}
