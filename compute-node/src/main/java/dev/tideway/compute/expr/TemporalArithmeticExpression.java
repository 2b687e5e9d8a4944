package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.IntervalVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import java.time.LocalDateTime;

/**
 * Date and time arithmetic, with the operand order the compiler normalised:
 *
 * <pre>
 * TIMESTAMP[TZ] ± INTERVAL -> same   DATE ± INT -> DATE      DATE - DATE -> INT
 * TIMESTAMP[TZ] - same     -> INTERVAL (days + time)        INTERVAL ± INTERVAL -> INTERVAL
 * TIME ± INTERVAL          -> TIME (wraps around midnight)
 * </pre>
 *
 * Intervals without months are applied on the microsecond values directly; months go through the
 * calendar (end of month clamps, as in PostgreSQL). Results outside the type's range fail.
 */
final class TemporalArithmeticExpression implements Expression {
  /** Which of the shapes above. */
  enum Shape {
    TIMESTAMP_INTERVAL,
    TIME_INTERVAL,
    DATE_INT,
    DATE_DATE,
    TIMESTAMP_TIMESTAMP,
    INTERVAL_INTERVAL
  }

  private final Shape shape;
  private final boolean subtract;
  private final Expression left;
  private final Expression right;
  private final DataType type;
  private final String name;

  TemporalArithmeticExpression(
      Shape shape, boolean subtract, Expression left, Expression right, DataType type) {
    this.shape = shape;
    this.subtract = subtract;
    this.left = left;
    this.right = right;
    this.type = type;
    this.name = subtract ? "SUBTRACT" : "ADD";
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
    return switch (shape) {
      case TIMESTAMP_INTERVAL, TIME_INTERVAL -> {
        long[] ts = Vectors.longs(a, n);
        IntervalVector iv = (IntervalVector) b;
        for (int i = 0; i < n; i++) {
          if (!skip[i]) {
            ts[i] = plus(ts[i], iv.months(i), iv.days(i), iv.micros(i), a.type());
          }
        }
        yield Vectors.ofLongs(type, ts, skip, n);
      }
      case DATE_INT, DATE_DATE -> {
        long[] x = Vectors.longs(a, n);
        long[] y = Vectors.longs(b, n);
        for (int i = 0; i < n; i++) {
          if (!skip[i]) {
            long r = subtract ? x[i] - y[i] : x[i] + y[i];
            if (r < Integer.MIN_VALUE || r > Integer.MAX_VALUE) {
              throw Errors.outOfRange(type, name, x[i] + ", " + y[i]);
            }
            x[i] = r;
          }
        }
        yield Vectors.ofLongs(type, x, skip, n);
      }
      case TIMESTAMP_TIMESTAMP -> {
        long[] x = Vectors.longs(a, n);
        long[] y = Vectors.longs(b, n);
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
          if (!skip[i]) {
            long d = x[i] - y[i];
            if (((x[i] ^ y[i]) & (x[i] ^ d)) < 0) {
              throw Errors.outOfRange(type, name, x[i] + ", " + y[i]);
            }
            out[i] =
                new Interval(0, (int) (d / Interval.MICROS_PER_DAY), d % Interval.MICROS_PER_DAY);
          }
        }
        yield Vectors.ofObjects(type, out, n);
      }
      case INTERVAL_INTERVAL -> {
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
          if (!skip[i]) {
            out[i] = intervals((Interval) a.get(i), (Interval) b.get(i));
          }
        }
        yield Vectors.ofObjects(type, out, n);
      }
    };
  }

  private long plus(long t, int months, int days, long micros, DataType from) {
    int sign = subtract ? -1 : 1;
    try {
      if (shape == Shape.TIME_INTERVAL) {
        return Math.floorMod(t + sign * micros, Interval.MICROS_PER_DAY);
      }
      long r = t;
      if (months != 0) {
        LocalDateTime dt = Temporals.microsToTimestamp(r).plusMonths((long) sign * months);
        r = Temporals.timestampToMicros(dt);
      }
      r = Math.addExact(r, Math.multiplyExact((long) sign * days, Interval.MICROS_PER_DAY));
      return Math.addExact(r, Math.multiplyExact((long) sign, micros));
    } catch (ArithmeticException | java.time.DateTimeException e) {
      throw Errors.outOfRange(
          type,
          name,
          Errors.typed(from, Vectors.ofLongs(from, new long[] {t}, new boolean[1], 1).get(0))
              + ", "
              + new Interval(months, days, micros)
              + "::interval");
    }
  }

  private Interval intervals(Interval x, Interval y) {
    try {
      return subtract
          ? new Interval(
              Math.subtractExact(x.months(), y.months()),
              Math.subtractExact(x.days(), y.days()),
              Math.subtractExact(x.micros(), y.micros()))
          : new Interval(
              Math.addExact(x.months(), y.months()),
              Math.addExact(x.days(), y.days()),
              Math.addExact(x.micros(), y.micros()));
    } catch (ArithmeticException e) {
      throw Errors.outOfRange(type, name, x + "::interval, " + y + "::interval");
    }
  }

  @Override
  public String toString() {
    return name + "(" + left + ", " + right + ")";
  }
}
