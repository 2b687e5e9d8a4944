package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/**
 * One immutable column of a {@link StreamChunk}: values on primitive arrays (no boxing on the hot
 * path) and a null bitmap. The physical form per type:
 *
 * <pre>
 * BOOLEAN           {@link BoolVector}      boolean[]
 * SMALLINT          {@link ShortVector}     short[]
 * INT, DATE         {@link IntVector}       int[]  (DATE: days since 1970-01-01)
 * BIGINT, TIME,     {@link LongVector}      long[] (TIME: µs of day; TIMESTAMP[TZ]: µs since
 * TIMESTAMP[TZ]                                     1970-01-01T00:00, UTC for TIMESTAMPTZ)
 * REAL              {@link FloatVector}     float[]
 * DOUBLE            {@link DoubleVector}    double[]
 * DECIMAL, VARCHAR, {@link ObjectVector}    BigDecimal[] / String[] / byte[][]
 * BYTEA
 * INTERVAL          {@link IntervalVector}  int[] months, int[] days, long[] micros
 * </pre>
 *
 * A null slot holds the type's zero value in the array; read {@link #isNull} first.
 */
public abstract sealed class ColumnVector
    permits BoolVector,
        ShortVector,
        IntVector,
        LongVector,
        FloatVector,
        DoubleVector,
        ObjectVector,
        IntervalVector {
  private final DataType type;
  private final int size;

  /** Bit i set = row i is NULL; {@code null} when the column has no NULLs. */
  private final long[] nulls;

  ColumnVector(DataType type, int size, long[] nulls) {
    this.type = type;
    this.size = size;
    this.nulls = nulls;
  }

  public final DataType type() {
    return type;
  }

  public final int size() {
    return size;
  }

  public final boolean isNull(int i) {
    return nulls != null && (nulls[i >>> 6] & (1L << i)) != 0;
  }

  /** True when some row is NULL. */
  public final boolean hasNulls() {
    return nulls != null;
  }

  final long[] nullBitmap() {
    return nulls;
  }

  /** The Java value of row {@code i} (boxed; for edges and tests, not inner loops). */
  public final Object get(int i) {
    return isNull(i) ? null : getNonNull(i);
  }

  abstract Object getNonNull(int i);

  /** A builder for a column of {@code type}. */
  public static ColumnBuilder builder(DataType type, int capacity) {
    return ColumnBuilder.create(type, capacity);
  }
}
