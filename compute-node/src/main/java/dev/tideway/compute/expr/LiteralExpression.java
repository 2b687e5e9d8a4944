package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;

/**
 * A constant. The column for the last chunk size is cached: chunks of one stream mostly share a
 * size, and the vector is immutable.
 */
final class LiteralExpression implements Expression {
  private final Object value;
  private final DataType type;

  /** The vector returned for the last chunk size; reused while the size repeats. */
  private ColumnVector cached;

  LiteralExpression(Object value, DataType type) {
    this.value = value;
    this.type = type;
  }

  Object value() {
    return value;
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] selected) {
    int n = chunk.size();
    if (cached == null || cached.size() != n) {
      ColumnBuilder b = ColumnVector.builder(type, n);
      for (int i = 0; i < n; i++) {
        b.append(value);
      }
      cached = b.build();
    }
    return cached;
  }

  @Override
  public String toString() {
    return value == null ? "NULL::" + type : "'" + Datums.toText(type, value) + "'::" + type;
  }
}
