package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;

/**
 * {@code -a} and {@code abs(a)} over a numeric or INTERVAL operand of the result type; negating the
 * smallest value of an integral type is an overflow.
 */
final class UnaryArithmeticExpression implements Expression {
  private final FunctionKind kind;
  private final Expression input;
  private final DataType type;

  UnaryArithmeticExpression(FunctionKind kind, Expression input, DataType type) {
    this.kind = kind;
    this.input = input;
    this.type = type;
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector a = input.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(a, sel, n);
    TypeId t = type.id();
    if (Vectors.isIntegral(t)) {
      long[] v = Vectors.longs(a, n);
      long min = ArithmeticExpression.rangeMin(t);
      for (int i = 0; i < n; i++) {
        if (skip[i] || (kind == FunctionKind.ABS && v[i] >= 0)) {
          continue;
        }
        if (v[i] == min) {
          throw Errors.outOfRange(type, kind.name(), v[i] + "::" + type.sqlName());
        }
        v[i] = -v[i];
      }
      return Vectors.ofLongs(type, v, skip, n);
    }
    if (Vectors.isFloat(t)) {
      double[] v = Vectors.doubles(a, n);
      for (int i = 0; i < n; i++) {
        v[i] = kind == FunctionKind.ABS ? Math.abs(v[i]) : -v[i];
      }
      return Vectors.ofDoubles(type, v, skip, n);
    }
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        continue;
      }
      Object v = a.get(i);
      if (v instanceof BigDecimal d) {
        out[i] = kind == FunctionKind.ABS ? d.abs() : d.negate();
      } else {
        Interval iv = (Interval) v;
        Interval neg = negate(iv);
        out[i] = kind == FunctionKind.ABS && iv.compareTo(Interval.ZERO) >= 0 ? iv : neg;
      }
    }
    return Vectors.ofObjects(type, out, n);
  }

  private Interval negate(Interval iv) {
    try {
      return new Interval(
          Math.negateExact(iv.months()),
          Math.negateExact(iv.days()),
          Math.negateExact(iv.micros()));
    } catch (ArithmeticException e) {
      throw Errors.outOfRange(type, kind.name(), iv + "::interval");
    }
  }

  @Override
  public String toString() {
    return kind + "(" + input + ")";
  }
}
