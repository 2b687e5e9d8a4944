package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * PostgreSQL's math functions over one numeric argument of the result type (and an integral scale
 * for {@code round}):
 *
 * <ul>
 *   <li>{@code round(x [, s])}: a numeric rounds half away from zero to {@code s} digits (negative
 *       s rounds left of the point, as for integers); a float without a scale rounds half to even
 *       ({@code round(2.5::float8)} is 2, C's {@code rint}), with one half away from zero;
 *   <li>{@code floor}, {@code ceil}, {@code sign} keep the argument's type;
 *   <li>{@code sqrt}, {@code exp}, {@code ln}, {@code log10}, {@code power} over doubles; a
 *       negative square root, the logarithm of zero or of a negative number, zero to a negative
 *       power and a negative number to a fractional power are errors, as in PostgreSQL.
 * </ul>
 *
 * NULL in, NULL out.
 */
final class MathExpression implements Expression {
  private final FunctionKind kind;
  private final List<Expression> args;
  private final DataType type;

  MathExpression(FunctionKind kind, List<Expression> args, DataType type) {
    this.kind = kind;
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
    ColumnVector a = args.get(0).eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(a, sel, n);
    long[] scale = null;
    if (args.size() > 1) {
      ColumnVector b = args.get(1).eval(chunk, sel);
      Vectors.orNulls(skip, b);
      if (kind == FunctionKind.POWER) {
        return power(Vectors.doubles(a, n), Vectors.doubles(b, n), skip, n);
      }
      scale = Vectors.longs(b, n);
    }
    TypeId t = type.id();
    if (Vectors.isIntegral(t)) {
      long[] v = Vectors.longs(a, n);
      for (int i = 0; i < n; i++) {
        if (!skip[i]) {
          v[i] = integral(v[i], scale == null ? 0 : scale[i]);
        }
      }
      return Vectors.ofLongs(type, v, skip, n);
    }
    if (Vectors.isFloat(t)) {
      double[] v = Vectors.doubles(a, n);
      for (int i = 0; i < n; i++) {
        if (!skip[i]) {
          v[i] = floating(v[i], scale == null ? null : scale[i]);
        }
      }
      return Vectors.ofDoubles(type, v, skip, n);
    }
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      if (!skip[i]) {
        out[i] = decimal((BigDecimal) a.get(i), scale == null ? 0 : scale[i]);
      }
    }
    return Vectors.ofObjects(type, out, n);
  }

  private long integral(long v, long scale) {
    return switch (kind) {
      case ROUND -> scale >= 0 ? v : decimal(BigDecimal.valueOf(v), scale).longValueExact();
      case FLOOR, CEIL -> v;
      case SIGN -> Long.signum(v);
      default -> throw new IllegalStateException(kind + " over integers");
    };
  }

  private double floating(double v, Long scale) {
    return switch (kind) {
      case ROUND ->
          scale == null || Double.isNaN(v) || Double.isInfinite(v)
              ? Math.rint(v)
              : BigDecimal.valueOf(v)
                  .setScale(clampScale(scale), RoundingMode.HALF_UP)
                  .doubleValue();
      case FLOOR -> Math.floor(v);
      case CEIL -> Math.ceil(v);
      case SIGN -> Math.signum(v);
      case SQRT -> {
        if (v < 0) {
          throw Errors.badArgument("SQRT", "cannot take square root of a negative number");
        }
        yield Math.sqrt(v);
      }
      case EXP -> Math.exp(v);
      case LN, LOG10 -> {
        if (v == 0) {
          throw Errors.badArgument(kind.name(), "cannot take logarithm of zero");
        }
        if (v < 0) {
          throw Errors.badArgument(kind.name(), "cannot take logarithm of a negative number");
        }
        yield kind == FunctionKind.LN ? Math.log(v) : Math.log10(v);
      }
      default -> throw new IllegalStateException(kind + " over floats");
    };
  }

  private BigDecimal decimal(BigDecimal v, long scale) {
    return switch (kind) {
      case ROUND -> v.setScale(clampScale(scale), RoundingMode.HALF_UP);
      case FLOOR -> v.setScale(0, RoundingMode.FLOOR);
      case CEIL -> v.setScale(0, RoundingMode.CEILING);
      case SIGN -> BigDecimal.valueOf(v.signum());
      default -> throw new IllegalStateException(kind + " over numerics");
    };
  }

  private static int clampScale(long scale) {
    return (int) Math.max(-1000, Math.min(1000, scale));
  }

  private ColumnVector power(double[] x, double[] y, boolean[] skip, int n) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        continue;
      }
      if (x[i] == 0 && y[i] < 0) {
        throw Errors.badArgument("POWER", "zero raised to a negative power is undefined");
      }
      if (x[i] < 0 && y[i] != Math.floor(y[i])) {
        throw Errors.badArgument(
            "POWER", "a negative number raised to a non-integer power yields a complex result");
      }
      out[i] = Math.pow(x[i], y[i]);
    }
    return Vectors.ofDoubles(type, out, skip, n);
  }

  @Override
  public String toString() {
    return kind + "" + args;
  }
}
