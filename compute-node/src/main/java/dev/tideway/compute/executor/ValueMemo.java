package dev.tideway.compute.executor;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.types.TypeId;

/**
 * Remembers the Java values of the last few distinct raw values read from a column of 64-bit
 * values, so an executor that reads the same timestamps over and over (the window bounds of every
 * HOP or TUMBLE row) decodes each one once instead of building a {@code LocalDateTime} per row. The
 * last {@value #SLOTS} distinct values, scanned linearly and replaced round-robin (a HOP's five
 * overlapping windows all stay). BIGINT and columns of other representations are read as they are.
 *
 * <p>Values are immutable, so a remembered one may be shared by many rows. Confined to the
 * executor's actor thread.
 */
final class ValueMemo {
  private static final int SLOTS = 8;

  private final long[] raw = new long[SLOTS];
  private final Object[] values = new Object[SLOTS];
  private int next;

  /** The value at row {@code i} of {@code column} (null for NULL). */
  Object get(ColumnVector column, int i) {
    if (!(column instanceof LongVector longs)
        || column.isNull(i)
        || column.type().id() == TypeId.BIGINT) {
      return column.get(i); // a BIGINT decodes to a boxed long: nothing to save
    }
    long r = longs.getLong(i);
    for (int s = 0; s < SLOTS; s++) {
      if (raw[s] == r && values[s] != null) {
        return values[s];
      }
    }
    Object v = column.get(i);
    raw[next] = r;
    values[next] = v;
    next = (next + 1) & (SLOTS - 1);
    return v;
  }
}
