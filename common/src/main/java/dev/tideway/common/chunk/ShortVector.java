package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/** A {@code SMALLINT} column on a {@code short[]}. */
public final class ShortVector extends ColumnVector {
  private final short[] values;

  ShortVector(DataType type, short[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  /** The raw value of row {@code i}; meaningless when {@link #isNull} is true. */
  public short getShort(int i) {
    return values[i];
  }

  @Override
  Object getNonNull(int i) {
    return values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  short[] rawValues() {
    return values;
  }
}
