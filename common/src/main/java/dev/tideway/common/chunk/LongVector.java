package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Temporals;

/**
 * A {@code BIGINT}, {@code TIME}, {@code TIMESTAMP} or {@code TIMESTAMPTZ} column on a {@code
 * long[]} (microseconds for the temporal types).
 */
public final class LongVector extends ColumnVector {
  private final long[] values;

  LongVector(DataType type, long[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public long getLong(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    long v = values[i];
    return switch (type().id()) {
      case TIME -> Temporals.microsToTime(v);
      case TIMESTAMP -> Temporals.microsToTimestamp(v);
      case TIMESTAMPTZ -> Temporals.microsToInstant(v);
      default -> v;
    };
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  long[] rawValues() {
    return values;
  }
}
