package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/** A {@code REAL} column on a {@code float[]}. */
public final class FloatVector extends ColumnVector {
  private final float[] values;

  FloatVector(DataType type, float[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public float getFloat(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    return values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  float[] rawValues() {
    return values;
  }
}
