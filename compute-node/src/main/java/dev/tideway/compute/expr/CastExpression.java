package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code CAST(a AS type)}. {@link #pathFor} decides at compile time whether a cast exists and how
 * it runs: between integer-like, boolean and date/time types on {@code long}s, between numbers on
 * {@code double}s, everything else (text in or out, DECIMAL, INTERVAL) value by value. Floats and
 * decimals round to integers half away from zero (half even for floats, as PostgreSQL's {@code
 * rint}); a value that does not fit or does not parse fails naming the value and both types.
 */
final class CastExpression implements Expression {
  /** How a cast runs. */
  enum Path {
    LONGS,
    DOUBLE_TO_LONG,
    TO_DOUBLE,
    VALUES
  }

  private final Expression input;
  private final DataType from;
  private final DataType to;
  private final Path path;

  CastExpression(Expression input, DataType to) {
    this.input = input;
    this.from = input.returnType();
    this.to = to;
    this.path = pathFor(from, to);
  }

  /** How {@code from} casts to {@code to}; fails naming both when there is no such cast. */
  static Path pathFor(DataType from, DataType to) {
    TypeId f = from.id();
    TypeId t = to.id();
    if (f == TypeId.VARCHAR || t == TypeId.VARCHAR) {
      return Path.VALUES;
    }
    if (f == t) {
      return Vectors.isLongLike(f) || f == TypeId.BOOLEAN ? Path.LONGS : Path.VALUES;
    }
    if (integralOrBool(f) && integralOrBool(t)) {
      return Path.LONGS;
    }
    if (isTemporal(f)
        && isTemporal(t)
        && f != TypeId.TIME
        && !(f == TypeId.DATE && t == TypeId.TIME)) {
      return Path.LONGS;
    }
    if (Vectors.isFloat(f) && Vectors.isIntegral(t)) {
      return Path.DOUBLE_TO_LONG;
    }
    if (Vectors.isFloat(t) && (Vectors.isIntegral(f) || Vectors.isFloat(f))) {
      return Path.TO_DOUBLE;
    }
    if (Vectors.isNumeric(f) && Vectors.isNumeric(t)) {
      return Path.VALUES;
    }
    throw new IllegalArgumentException(
        "cannot cast type " + from.sqlName() + " to " + to.sqlName());
  }

  private static boolean integralOrBool(TypeId t) {
    return Vectors.isIntegral(t) || t == TypeId.BOOLEAN;
  }

  private static boolean isTemporal(TypeId t) {
    return t == TypeId.DATE || t == TypeId.TIME || t == TypeId.TIMESTAMP || t == TypeId.TIMESTAMPTZ;
  }

  @Override
  public DataType returnType() {
    return to;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector v = input.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(v, sel, n);
    return switch (path) {
      case LONGS -> Vectors.ofLongs(to, longs(Vectors.longs(v, n), skip), skip, n);
      case DOUBLE_TO_LONG ->
          Vectors.ofLongs(to, doubleToLong(Vectors.doubles(v, n), skip), skip, n);
      case TO_DOUBLE -> Vectors.ofDoubles(to, toDouble(Vectors.doubles(v, n), skip), skip, n);
      case VALUES -> {
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
          out[i] = skip[i] ? null : convert(v.get(i));
        }
        yield Vectors.ofObjects(to, out, n);
      }
    };
  }

  private long[] longs(long[] x, boolean[] skip) {
    TypeId f = from.id();
    TypeId t = to.id();
    long min = ArithmeticExpression.rangeMin(t);
    long max = ArithmeticExpression.rangeMax(t);
    for (int i = 0; i < x.length; i++) {
      if (skip[i]) {
        continue;
      }
      long v = x[i];
      if (f == TypeId.DATE && t != TypeId.DATE) {
        v = v * TimeField.MICROS_PER_DAY; // DATE -> TIMESTAMP[TZ]; days fit easily
      } else if (t == TypeId.DATE && f != TypeId.DATE) {
        v = Math.floorDiv(v, TimeField.MICROS_PER_DAY);
      } else if (t == TypeId.TIME && f != TypeId.TIME) {
        v = Math.floorMod(v, TimeField.MICROS_PER_DAY);
      } else if (Vectors.isIntegral(t) && (v < min || v > max)) {
        throw Errors.outOfRange(to, "CAST", v + "::" + from.sqlName() + " AS " + to.sqlName());
      }
      x[i] = v;
    }
    return x;
  }

  private long[] doubleToLong(double[] x, boolean[] skip) {
    long[] out = new long[x.length];
    long min = ArithmeticExpression.rangeMin(to.id());
    long max = ArithmeticExpression.rangeMax(to.id());
    for (int i = 0; i < x.length; i++) {
      if (skip[i]) {
        continue;
      }
      double r = Math.rint(x[i]);
      if (Double.isNaN(r) || r < min || r >= -(double) min || r > max) {
        throw Errors.outOfRange(to, "CAST", x[i] + "::" + from.sqlName() + " AS " + to.sqlName());
      }
      out[i] = (long) r;
    }
    return out;
  }

  private double[] toDouble(double[] x, boolean[] skip) {
    if (to.id() == TypeId.REAL) {
      for (int i = 0; i < x.length; i++) {
        if (!skip[i] && Float.isInfinite((float) x[i]) && !Double.isInfinite(x[i])) {
          throw Errors.outOfRange(to, "CAST", x[i] + "::" + from.sqlName() + " AS real");
        }
      }
    }
    return x;
  }

  /** Converts one non-null value on the value-by-value path. */
  Object convert(Object v) {
    TypeId f = from.id();
    TypeId t = to.id();
    if (t == TypeId.VARCHAR) {
      return Datums.toText(from, v);
    }
    if (f == TypeId.VARCHAR) {
      try {
        return Datums.fromText(to, (String) v);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw Errors.badCast(v, from, to, e.getMessage());
      }
    }
    if (t == TypeId.DECIMAL) {
      BigDecimal d =
          switch (f) {
            case DECIMAL -> (BigDecimal) v;
            case REAL, DOUBLE -> {
              double x = ((Number) v).doubleValue();
              if (Double.isNaN(x) || Double.isInfinite(x)) {
                throw Errors.badCast(v, from, to, "numeric cannot hold " + x);
              }
              // PostgreSQL keeps 15 significant digits of a double (6 of a real)
              BigDecimal r = new BigDecimal(x, new MathContext(f == TypeId.REAL ? 6 : 15));
              r = r.stripTrailingZeros();
              yield r.scale() < 0 ? r.setScale(0) : r;
            }
            default -> BigDecimal.valueOf(((Number) v).longValue());
          };
      try {
        return Datums.decimal(to, d);
      } catch (ArithmeticException e) {
        throw Errors.outOfRange(to, "CAST", d + "::" + from.sqlName() + " AS " + to.sqlName());
      }
    }
    if (f == TypeId.DECIMAL && Vectors.isFloat(t)) {
      double x = ((BigDecimal) v).doubleValue();
      return t == TypeId.REAL ? (Object) (float) x : (Object) x;
    }
    if (f == TypeId.DECIMAL && Vectors.isIntegral(t)) {
      BigDecimal r = ((BigDecimal) v).setScale(0, RoundingMode.HALF_UP);
      if (r.compareTo(BigDecimal.valueOf(ArithmeticExpression.rangeMin(t))) < 0
          || r.compareTo(BigDecimal.valueOf(ArithmeticExpression.rangeMax(t))) > 0) {
        throw Errors.outOfRange(to, "CAST", v + "::" + from.sqlName() + " AS " + to.sqlName());
      }
      long l = r.longValueExact();
      return switch (t) {
        case SMALLINT -> (Object) (short) l;
        case INT -> (Object) (int) l;
        default -> (Object) l;
      };
    }
    if (f == t) {
      return v; // INTERVAL, BYTEA, same-type values
    }
    throw Errors.badCast(v, from, to, null);
  }

  @Override
  public String toString() {
    return "CAST(" + input + " AS " + to + ")";
  }
}
