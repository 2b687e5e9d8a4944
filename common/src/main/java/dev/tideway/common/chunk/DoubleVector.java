package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/** A {@code DOUBLE} column on a {@code double[]}. */
public final class DoubleVector extends ColumnVector {
  private final double[] values;

  DoubleVector(DataType type, double[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public double getDouble(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    return values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  double[] rawValues() {
    return values;
  }
}
