package dev.tideway.compute.expr;

import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import java.util.List;

/**
 * n-ary {@code AND} / {@code OR} with SQL's three-valued logic: {@code AND} is false if any operand
 * is false, else NULL if any is NULL, else true ({@code OR} dually). Each operand is evaluated only
 * on the rows the earlier ones left undecided, so {@code x <> 0 AND 10 / x > 1} never divides by
 * zero.
 */
final class LogicalExpression implements Expression {
  private final boolean isAnd;
  private final List<Expression> operands;

  LogicalExpression(boolean isAnd, List<Expression> operands) {
    this.isAnd = isAnd;
    this.operands = List.copyOf(operands);
  }

  @Override
  public DataType returnType() {
    return DataType.BOOLEAN;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    boolean[] undecided = sel.clone();
    boolean[] sawNull = new boolean[n];
    boolean[] decided = new boolean[n];
    for (Expression e : operands) {
      BoolVector v = (BoolVector) e.eval(chunk, undecided);
      for (int i = 0; i < n; i++) {
        if (!undecided[i]) {
          continue;
        }
        if (v.isNull(i)) {
          sawNull[i] = true;
        } else if (v.getBoolean(i) != isAnd) {
          decided[i] = true; // AND saw false / OR saw true
          undecided[i] = false;
        }
      }
    }
    boolean[] out = new boolean[n];
    boolean[] isNull = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (!sel[i]) {
        isNull[i] = true;
      } else if (decided[i]) {
        out[i] = !isAnd;
      } else if (sawNull[i]) {
        isNull[i] = true;
      } else {
        out[i] = isAnd;
      }
    }
    return Vectors.ofBools(out, isNull, n);
  }

  @Override
  public String toString() {
    return (isAnd ? "AND" : "OR") + operands;
  }
}
