package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/** A {@code BOOLEAN} column on a {@code boolean[]}. */
public final class BoolVector extends ColumnVector {
  private final boolean[] values;

  BoolVector(DataType type, boolean[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public boolean getBoolean(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    return values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  boolean[] rawValues() {
    return values;
  }
}
