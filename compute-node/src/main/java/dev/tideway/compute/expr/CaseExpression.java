package dev.tideway.compute.expr;

import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import java.util.List;

/**
 * {@code CASE WHEN c1 THEN v1 ... [ELSE e] END}. Each condition is evaluated on the rows no earlier
 * condition took, each value only on the rows its condition took (so a branch that would fail is
 * never evaluated for rows that do not reach it); a row no branch takes is NULL.
 */
final class CaseExpression implements Expression {
  private final List<Expression> conditions;
  private final List<Expression> values;
  private final Expression otherwise;
  private final DataType type;

  /** {@code otherwise} may be null (no ELSE). */
  CaseExpression(
      List<Expression> conditions, List<Expression> values, Expression otherwise, DataType type) {
    this.conditions = List.copyOf(conditions);
    this.values = List.copyOf(values);
    this.otherwise = otherwise;
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
    int branches = conditions.size() + (otherwise == null ? 0 : 1);
    ColumnVector[] results = new ColumnVector[branches];
    int[] taken = new int[n];
    java.util.Arrays.fill(taken, -1);
    for (int k = 0; k < conditions.size(); k++) {
      BoolVector c = (BoolVector) conditions.get(k).eval(chunk, remaining);
      boolean[] take = new boolean[n];
      boolean any = false;
      for (int i = 0; i < n; i++) {
        if (remaining[i] && !c.isNull(i) && c.getBoolean(i)) {
          take[i] = true;
          remaining[i] = false;
          taken[i] = k;
          any = true;
        }
      }
      if (any) {
        results[k] = values.get(k).eval(chunk, take);
      }
    }
    if (otherwise != null) {
      results[branches - 1] = otherwise.eval(chunk, remaining);
      for (int i = 0; i < n; i++) {
        if (remaining[i]) {
          taken[i] = branches - 1;
        }
      }
    }
    return gather(type, results, taken, n);
  }

  /** Row i from {@code results[taken[i]]}, NULL where {@code taken[i] < 0}. */
  static ColumnVector gather(DataType type, ColumnVector[] results, int[] taken, int n) {
    ColumnBuilder b = ColumnVector.builder(type, n);
    for (int i = 0; i < n; i++) {
      if (taken[i] < 0) {
        b.appendNull();
      } else {
        Vectors.appendFrom(b, results[taken[i]], i);
      }
    }
    return b.build();
  }

  @Override
  public String toString() {
    return "CASE" + conditions + values + (otherwise == null ? "" : " ELSE " + otherwise);
  }
}
