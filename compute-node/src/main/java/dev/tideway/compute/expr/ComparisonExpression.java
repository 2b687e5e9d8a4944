package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;

/**
 * {@code a (= <> < <= > >=) b} over operands of one type (the compiler casts them to their common
 * type); NULL when either is NULL. Integer-like and BOOLEAN operands compare as {@code long}s, REAL
 * and DOUBLE in SQL order ({@code NaN} equals itself and is above every number, {@code -0 = 0}),
 * the rest through {@link Datums#compare}.
 */
final class ComparisonExpression implements Expression {
  private final FunctionKind kind;
  private final Expression left;
  private final Expression right;
  private final DataType operandType;

  ComparisonExpression(FunctionKind kind, Expression left, Expression right) {
    this.kind = kind;
    this.left = left;
    this.right = right;
    this.operandType = left.returnType();
  }

  @Override
  public DataType returnType() {
    return DataType.BOOLEAN;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector a = left.eval(chunk, sel);
    ColumnVector b = right.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(a, sel, n);
    Vectors.orNulls(skip, b);
    boolean[] out = new boolean[n];
    TypeId t = operandType.id();
    if (Vectors.isLongLike(t) || t == TypeId.BOOLEAN) {
      long[] x = Vectors.longs(a, n);
      long[] y = Vectors.longs(b, n);
      for (int i = 0; i < n; i++) {
        out[i] = !skip[i] && test(Long.compare(x[i], y[i]));
      }
    } else if (Vectors.isFloat(t)) {
      double[] x = Vectors.doubles(a, n);
      double[] y = Vectors.doubles(b, n);
      for (int i = 0; i < n; i++) {
        out[i] = !skip[i] && test(Double.compare(Datums.normalize(x[i]), Datums.normalize(y[i])));
      }
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = !skip[i] && test(Datums.compare(operandType, a.get(i), b.get(i)));
      }
    }
    return Vectors.ofBools(out, skip, n);
  }

  private boolean test(int c) {
    return switch (kind) {
      case EQUAL -> c == 0;
      case NOT_EQUAL -> c != 0;
      case LESS_THAN -> c < 0;
      case LESS_THAN_OR_EQUAL -> c <= 0;
      case GREATER_THAN -> c > 0;
      case GREATER_THAN_OR_EQUAL -> c >= 0;
      default -> throw new IllegalStateException("not a comparison: " + kind);
    };
  }

  @Override
  public String toString() {
    return kind + "(" + left + ", " + right + ")";
  }
}
