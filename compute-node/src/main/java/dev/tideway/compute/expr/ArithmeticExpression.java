package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code a (+ - * / %) b} where both operands already have the result type (the compiler casts
 * them): integral types on {@code long}s with overflow checks against the result type, REAL and
 * DOUBLE on {@code double}s (an infinite result from finite operands is an overflow, as in
 * PostgreSQL), DECIMAL on {@link BigDecimal}s. Integer division truncates toward zero; every
 * division and modulus by zero fails.
 */
final class ArithmeticExpression implements Expression {
  /** Digits after the point of a DECIMAL quotient when neither operand has more. */
  private static final int MIN_DIVIDE_SCALE = 16;

  private final FunctionKind kind;
  private final Expression left;
  private final Expression right;
  private final DataType type;
  private final long min;
  private final long max;

  ArithmeticExpression(FunctionKind kind, Expression left, Expression right, DataType type) {
    this.kind = kind;
    this.left = left;
    this.right = right;
    this.type = type;
    this.min = rangeMin(type.id());
    this.max = rangeMax(type.id());
  }

  static long rangeMin(TypeId t) {
    return switch (t) {
      case SMALLINT -> Short.MIN_VALUE;
      case INT -> Integer.MIN_VALUE;
      default -> Long.MIN_VALUE;
    };
  }

  static long rangeMax(TypeId t) {
    return switch (t) {
      case SMALLINT -> Short.MAX_VALUE;
      case INT -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector a = left.eval(chunk, sel);
    ColumnVector b = right.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(a, sel, n);
    Vectors.orNulls(skip, b);
    TypeId t = type.id();
    if (Vectors.isIntegral(t)) {
      return Vectors.ofLongs(
          type, integral(Vectors.longs(a, n), Vectors.longs(b, n), skip), skip, n);
    }
    if (Vectors.isFloat(t)) {
      return Vectors.ofDoubles(
          type, floating(Vectors.doubles(a, n), Vectors.doubles(b, n), skip), skip, n);
    }
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      if (!skip[i]) {
        out[i] = decimal((BigDecimal) a.get(i), (BigDecimal) b.get(i));
      }
    }
    return Vectors.ofObjects(type, out, n);
  }

  private long[] integral(long[] a, long[] b, boolean[] skip) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      if (skip[i]) {
        continue;
      }
      long x = a[i];
      long y = b[i];
      long r;
      switch (kind) {
        case ADD -> {
          r = x + y;
          if (((x ^ r) & (y ^ r)) < 0) {
            throw overflow(x, y);
          }
        }
        case SUBTRACT -> {
          r = x - y;
          if (((x ^ y) & (x ^ r)) < 0) {
            throw overflow(x, y);
          }
        }
        case MULTIPLY -> {
          long hi = Math.multiplyHigh(x, y);
          r = x * y;
          if (hi != (r >> 63)) {
            throw overflow(x, y);
          }
        }
        case DIVIDE -> {
          if (y == 0) {
            throw Errors.divisionByZero(kind.name(), operands(x, y));
          }
          if (x == Long.MIN_VALUE && y == -1) {
            throw overflow(x, y);
          }
          r = x / y;
        }
        case MODULUS -> {
          if (y == 0) {
            throw Errors.divisionByZero(kind.name(), operands(x, y));
          }
          r = y == -1 ? 0 : x % y;
        }
        default -> throw new IllegalStateException("not arithmetic: " + kind);
      }
      if (r < min || r > max) {
        throw overflow(x, y);
      }
      out[i] = r;
    }
    return out;
  }

  private double[] floating(double[] a, double[] b, boolean[] skip) {
    double[] out = new double[a.length];
    boolean real = type.id() == TypeId.REAL;
    for (int i = 0; i < a.length; i++) {
      if (skip[i]) {
        continue;
      }
      double x = a[i];
      double y = b[i];
      double r =
          switch (kind) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE, MODULUS -> {
              if (y == 0) {
                throw Errors.divisionByZero(kind.name(), operands(x, y));
              }
              yield kind == FunctionKind.DIVIDE ? x / y : x % y;
            }
            default -> throw new IllegalStateException("not arithmetic: " + kind);
          };
      boolean inf = real ? Float.isInfinite((float) r) : Double.isInfinite(r);
      if (inf && !Double.isInfinite(x) && !Double.isInfinite(y)) {
        throw Errors.outOfRange(type, kind.name(), operands(x, y));
      }
      out[i] = r;
    }
    return out;
  }

  private BigDecimal decimal(BigDecimal x, BigDecimal y) {
    return switch (kind) {
      case ADD -> x.add(y);
      case SUBTRACT -> x.subtract(y);
      case MULTIPLY -> x.multiply(y);
      case DIVIDE -> {
        if (y.signum() == 0) {
          throw Errors.divisionByZero(kind.name(), operands(x, y));
        }
        // as PostgreSQL's select_div_scale: at least 16 significant digits, and no fewer
        // fraction digits than either operand (a tiny quotient is not rounded to 0)
        int exponent = (x.precision() - x.scale()) - (y.precision() - y.scale());
        int scale = Math.max(MIN_DIVIDE_SCALE - exponent, Math.max(x.scale(), y.scale()));
        yield x.divide(y, Math.min(Math.max(scale, 0), 1000), RoundingMode.HALF_UP);
      }
      case MODULUS -> {
        if (y.signum() == 0) {
          throw Errors.divisionByZero(kind.name(), operands(x, y));
        }
        yield x.remainder(y);
      }
      default -> throw new IllegalStateException("not arithmetic: " + kind);
    };
  }

  private ExprException overflow(long x, long y) {
    return Errors.outOfRange(type, kind.name(), operands(x, y));
  }

  private String operands(Object x, Object y) {
    return x + "::" + type.sqlName() + ", " + y + "::" + type.sqlName();
  }

  @Override
  public String toString() {
    return kind + "(" + left + ", " + right + ")";
  }
}
