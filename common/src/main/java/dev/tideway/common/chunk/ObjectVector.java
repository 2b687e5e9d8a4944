package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;

/** A {@code DECIMAL} (BigDecimal), {@code VARCHAR} (String) or {@code BYTEA} (byte[]) column. */
public final class ObjectVector extends ColumnVector {
  private final Object[] values;

  ObjectVector(DataType type, Object[] values, int size, long[] nulls) {
    super(type, size, nulls);
    this.values = values;
  }

  @Override
  Object getNonNull(int i) {
    return values[i];
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  Object[] rawValues() {
    return values;
  }
}
