package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;

/** Column {@code index} of the input chunk, returned as is (no copy). */
final class InputRefExpression implements Expression {
  private final int index;
  private final DataType type;

  InputRefExpression(int index, DataType type) {
    this.index = index;
    this.type = type;
  }

  int index() {
    return index;
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] selected) {
    return chunk.column(index);
  }

  @Override
  public String toString() {
    return "$" + index;
  }
}
