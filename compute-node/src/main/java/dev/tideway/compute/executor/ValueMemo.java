package dev.tideway.compute.executor;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;

/**
 * Remembers the Java values of the last few distinct raw values read from a column of 64-bit
 * values, so an executor that reads the same timestamps over and over (the window bounds of every
 * HOP or TUMBLE row) decodes each one once instead of building a {@code LocalDateTime} per row. A
 * small direct-mapped table: a collision just decodes again. Columns of other representations are
 * read as they are.
 *
 * <p>Values are immutable, so a remembered one may be shared by many rows. Confined to the
 * executor's actor thread.
 */
final class ValueMemo {
  private static final int SLOTS = 16;

  private final long[] raw = new long[SLOTS];
  private final Object[] values = new Object[SLOTS];

  /** The value at row {@code i} of {@code column} (null for NULL). */
  Object get(ColumnVector column, int i) {
    if (!(column instanceof LongVector longs) || column.isNull(i)) {
      return column.get(i);
    }
    long r = longs.getLong(i);
    int slot = (int) ((r ^ (r >>> 17) ^ (r >>> 31)) & (SLOTS - 1));
    Object v = values[slot];
    if (v != null && raw[slot] == r) {
      return v;
    }
    v = column.get(i);
    raw[slot] = r;
    values[slot] = v;
    return v;
  }
}
