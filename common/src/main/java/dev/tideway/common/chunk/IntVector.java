package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Temporals;
import dev.tideway.common.types.TypeId;

/** An {@code INT} or {@code DATE} (days since 1970-01-01) column on an {@code int[]}. */
public final class IntVector extends ColumnVector {
  private final int[] values;

  IntVector(DataType type, int[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public int getInt(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    return type().id() == TypeId.DATE ? Temporals.daysToDate(values[i]) : (Object) values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  int[] rawValues() {
    return values;
  }
}
