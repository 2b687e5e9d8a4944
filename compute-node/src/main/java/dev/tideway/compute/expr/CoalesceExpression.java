package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import java.util.Arrays;
import java.util.List;

/**
 * {@code COALESCE(a, b, ...)}: the first non-NULL argument. Each argument is evaluated only on the
 * rows every earlier one left NULL.
 */
final class CoalesceExpression implements Expression {
  private final List<Expression> args;
  private final DataType type;

  CoalesceExpression(List<Expression> args, DataType type) {
    this.args = List.copyOf(args);
    this.type = type;
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    boolean[] remaining = sel.clone();
    ColumnVector[] results = new ColumnVector[args.size()];
    int[] taken = new int[n];
    Arrays.fill(taken, -1);
    for (int k = 0; k < args.size(); k++) {
      ColumnVector v = args.get(k).eval(chunk, remaining);
      results[k] = v;
      boolean left = false;
      for (int i = 0; i < n; i++) {
        if (remaining[i] && !v.isNull(i)) {
          taken[i] = k;
          remaining[i] = false;
        }
        left |= remaining[i];
      }
      if (!left) {
        break;
      }
    }
    return CaseExpression.gather(type, results, taken, n);
  }

  @Override
  public String toString() {
    return "COALESCE" + args;
  }
}
