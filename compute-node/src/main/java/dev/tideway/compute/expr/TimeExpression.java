package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;

/**
 * The time functions over a TIMESTAMP, TIMESTAMPTZ (read in UTC) or TIME column (the compiler casts
 * DATE to TIMESTAMP): {@code extract(field from t)}, {@code date_trunc(field, t)} and {@code
 * tumble_start(t, size)} (the start of the size-long window holding t, windows aligned to
 * 1970-01-01). All work on the microsecond values without boxing, except a DECIMAL result.
 */
final class TimeExpression implements Expression {
  /** Which function. */
  enum Kind {
    EXTRACT,
    DATE_TRUNC,
    TUMBLE_START
  }

  private final Kind kind;
  private final TimeField field;
  private final long windowMicros;
  private final Expression input;
  private final DataType type;

  /** {@code field} for EXTRACT / DATE_TRUNC, {@code windowMicros} for TUMBLE_START. */
  TimeExpression(Kind kind, TimeField field, long windowMicros, Expression input, DataType type) {
    this.kind = kind;
    this.field = field;
    this.windowMicros = windowMicros;
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
    ColumnVector v = input.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(v, sel, n);
    long[] t = Vectors.longs(v, n);
    switch (kind) {
      case TUMBLE_START -> {
        for (int i = 0; i < n; i++) {
          t[i] -= Math.floorMod(t[i], windowMicros);
        }
        return Vectors.ofLongs(type, t, skip, n);
      }
      case DATE_TRUNC -> {
        for (int i = 0; i < n; i++) {
          if (!skip[i]) {
            t[i] = field.truncate(t[i]);
          }
        }
        return Vectors.ofLongs(type, t, skip, n);
      }
      default -> {
        return extract(t, skip, n);
      }
    }
  }

  private ColumnVector extract(long[] t, boolean[] skip, int n) {
    int scale = field.extractScale();
    for (int i = 0; i < n; i++) {
      if (!skip[i]) {
        t[i] = field.extract(t[i]);
      }
    }
    TypeId out = type.id();
    if (out == TypeId.DECIMAL) {
      Object[] o = new Object[n];
      for (int i = 0; i < n; i++) {
        o[i] = skip[i] ? null : BigDecimal.valueOf(t[i], scale);
      }
      return Vectors.ofObjects(type, o, n);
    }
    long pow = scale == 0 ? 1 : scale == 3 ? 1_000 : 1_000_000;
    if (Vectors.isFloat(out)) {
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = (double) t[i] / pow;
      }
      return Vectors.ofDoubles(type, d, skip, n);
    }
    if (pow != 1) {
      for (int i = 0; i < n; i++) {
        long q = t[i] / pow;
        long r = t[i] % pow;
        t[i] = Math.abs(r) * 2 >= pow ? q + Long.signum(r) : q; // half away from zero
      }
    }
    long min = ArithmeticExpression.rangeMin(out);
    long max = ArithmeticExpression.rangeMax(out);
    for (int i = 0; i < n; i++) {
      if (!skip[i] && (t[i] < min || t[i] > max)) {
        throw Errors.outOfRange(type, "EXTRACT", field + ", " + t[i]);
      }
    }
    return Vectors.ofLongs(type, t, skip, n);
  }

  @Override
  public String toString() {
    return kind + "(" + (field != null ? field : windowMicros + "us") + ", " + input + ")";
  }
}
