package dev.tideway.compute.expr;

import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;

/**
 * {@code NOT a} (NULL stays NULL), and the tests that never return NULL: {@code a IS [NOT] NULL}
 * (any type), {@code a IS TRUE}, {@code a IS FALSE}.
 */
final class BooleanTestExpression implements Expression {
  private final FunctionKind kind;
  private final Expression input;

  BooleanTestExpression(FunctionKind kind, Expression input) {
    this.kind = kind;
    this.input = input;
  }

  @Override
  public DataType returnType() {
    return DataType.BOOLEAN;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector v = input.eval(chunk, sel);
    boolean[] out = new boolean[n];
    boolean[] isNull = new boolean[n];
    BoolVector b = v instanceof BoolVector bv ? bv : null;
    for (int i = 0; i < n; i++) {
      if (!sel[i]) {
        isNull[i] = true;
        continue;
      }
      boolean nul = v.isNull(i);
      switch (kind) {
        case IS_NULL -> out[i] = nul;
        case IS_NOT_NULL -> out[i] = !nul;
        case IS_TRUE -> out[i] = !nul && b.getBoolean(i);
        case IS_FALSE -> out[i] = !nul && !b.getBoolean(i);
        case NOT -> {
          isNull[i] = nul;
          out[i] = !nul && !b.getBoolean(i);
        }
        default -> throw new IllegalStateException("not a boolean test: " + kind);
      }
    }
    return Vectors.ofBools(out, isNull, n);
  }

  @Override
  public String toString() {
    return kind + "(" + input + ")";
  }
}
