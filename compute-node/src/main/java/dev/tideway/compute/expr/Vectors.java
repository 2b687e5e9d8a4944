package dev.tideway.compute.expr;

import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.DoubleVector;
import dev.tideway.common.chunk.FloatVector;
import dev.tideway.common.chunk.IntVector;
import dev.tideway.common.chunk.IntervalVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.ShortVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.TypeId;

/**
 * Primitive access to column vectors for kernels: reads a column into a primitive array once per
 * chunk, builds a result vector from primitive arrays, and copies single cells between vectors
 * without boxing. Stateless.
 */
public final class Vectors {
  private Vectors() {}

  /** {@code out[i]} is true for each visible row of {@code chunk}. */
  public static boolean[] visibleRows(StreamChunk chunk) {
    boolean[] sel = new boolean[chunk.size()];
    for (int i = 0; i < sel.length; i++) {
      sel[i] = chunk.isVisible(i);
    }
    return sel;
  }

  /** True for SMALLINT, INT, BIGINT. */
  public static boolean isIntegral(TypeId t) {
    return t == TypeId.SMALLINT || t == TypeId.INT || t == TypeId.BIGINT;
  }

  /** True for REAL, DOUBLE. */
  public static boolean isFloat(TypeId t) {
    return t == TypeId.REAL || t == TypeId.DOUBLE;
  }

  /** True for the integral, float and DECIMAL types. */
  public static boolean isNumeric(TypeId t) {
    return isIntegral(t) || isFloat(t) || t == TypeId.DECIMAL;
  }

  /** True for types stored on a {@code short[]}, {@code int[]} or {@code long[]}. */
  public static boolean isLongLike(TypeId t) {
    return switch (t) {
      case SMALLINT, INT, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> true;
      default -> false;
    };
  }

  /** {@code skip[i]} is true where row i is not selected or NULL in {@code v}. */
  static boolean[] skipMask(ColumnVector v, boolean[] sel, int n) {
    boolean[] skip = new boolean[n];
    boolean nulls = v.hasNulls();
    for (int i = 0; i < n; i++) {
      skip[i] = !sel[i] || (nulls && v.isNull(i));
    }
    return skip;
  }

  /** Adds the NULLs of {@code v} to {@code skip}. */
  static void orNulls(boolean[] skip, ColumnVector v) {
    if (v.hasNulls()) {
      for (int i = 0; i < skip.length; i++) {
        skip[i] |= v.isNull(i);
      }
    }
  }

  /** The raw values of a SMALLINT/INT/BIGINT/DATE/TIME/TIMESTAMP[TZ] or BOOLEAN (0/1) column. */
  static long[] longs(ColumnVector v, int n) {
    long[] out = new long[n];
    if (v instanceof LongVector l) {
      for (int i = 0; i < n; i++) {
        out[i] = l.getLong(i);
      }
    } else if (v instanceof IntVector iv) {
      for (int i = 0; i < n; i++) {
        out[i] = iv.getInt(i);
      }
    } else if (v instanceof ShortVector s) {
      for (int i = 0; i < n; i++) {
        out[i] = s.getShort(i);
      }
    } else if (v instanceof BoolVector b) {
      for (int i = 0; i < n; i++) {
        out[i] = b.getBoolean(i) ? 1 : 0;
      }
    } else {
      throw new IllegalArgumentException("not an integer-like column: " + v.type());
    }
    return out;
  }

  /** The values of a numeric primitive column as doubles. */
  static double[] doubles(ColumnVector v, int n) {
    double[] out = new double[n];
    if (v instanceof DoubleVector d) {
      for (int i = 0; i < n; i++) {
        out[i] = d.getDouble(i);
      }
    } else if (v instanceof FloatVector f) {
      for (int i = 0; i < n; i++) {
        out[i] = f.getFloat(i);
      }
    } else {
      long[] l = longs(v, n);
      for (int i = 0; i < n; i++) {
        out[i] = l[i];
      }
    }
    return out;
  }

  /** The values of a BOOLEAN column. */
  static boolean[] bools(ColumnVector v, int n) {
    BoolVector b = (BoolVector) v;
    boolean[] out = new boolean[n];
    for (int i = 0; i < n; i++) {
      out[i] = b.getBoolean(i);
    }
    return out;
  }

  /** A column of {@code type} (stored on long-like arrays) from raw values; NULL where skip. */
  static ColumnVector ofLongs(DataType type, long[] values, boolean[] skip, int n) {
    ColumnBuilder b = ColumnVector.builder(type, n);
    switch (type.id()) {
      case SMALLINT -> {
        for (int i = 0; i < n; i++) {
          if (skip[i]) {
            b.appendNull();
          } else {
            b.appendShort((short) values[i]);
          }
        }
      }
      case INT, DATE -> {
        for (int i = 0; i < n; i++) {
          if (skip[i]) {
            b.appendNull();
          } else {
            b.appendInt((int) values[i]);
          }
        }
      }
      case BOOLEAN -> {
        for (int i = 0; i < n; i++) {
          if (skip[i]) {
            b.appendNull();
          } else {
            b.appendBoolean(values[i] != 0);
          }
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          if (skip[i]) {
            b.appendNull();
          } else {
            b.appendLong(values[i]);
          }
        }
      }
    }
    return b.build();
  }

  /** A REAL or DOUBLE column from doubles; NULL where skip. */
  static ColumnVector ofDoubles(DataType type, double[] values, boolean[] skip, int n) {
    ColumnBuilder b = ColumnVector.builder(type, n);
    boolean real = type.id() == TypeId.REAL;
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        b.appendNull();
      } else if (real) {
        b.appendFloat((float) values[i]);
      } else {
        b.appendDouble(values[i]);
      }
    }
    return b.build();
  }

  /** A BOOLEAN column; NULL where {@code isNull}. */
  static ColumnVector ofBools(boolean[] values, boolean[] isNull, int n) {
    ColumnBuilder b = ColumnVector.builder(DataType.BOOLEAN, n);
    for (int i = 0; i < n; i++) {
      if (isNull[i]) {
        b.appendNull();
      } else {
        b.appendBoolean(values[i]);
      }
    }
    return b.build();
  }

  /** A column from Java values ({@code null} = NULL); DECIMALs are rounded to the type's scale. */
  static ColumnVector ofObjects(DataType type, Object[] values, int n) {
    ColumnBuilder b = ColumnVector.builder(type, n);
    for (int i = 0; i < n; i++) {
      try {
        b.append(values[i]);
      } catch (ArithmeticException e) {
        throw new ExprException(ExprException.Reason.NUMERIC_OUT_OF_RANGE, e.getMessage(), e);
      }
    }
    return b.build();
  }

  /** A column of {@code n} NULLs. */
  static ColumnVector nulls(DataType type, int n) {
    ColumnBuilder b = ColumnVector.builder(type, n);
    for (int i = 0; i < n; i++) {
      b.appendNull();
    }
    return b.build();
  }

  /**
   * Appends row {@code i} of {@code source} to {@code target} (same physical type) without boxing
   * primitive values.
   */
  public static void appendFrom(ColumnBuilder target, ColumnVector source, int i) {
    if (source.isNull(i)) {
      target.appendNull();
    } else if (source instanceof LongVector l) {
      target.appendLong(l.getLong(i));
    } else if (source instanceof IntVector v) {
      target.appendInt(v.getInt(i));
    } else if (source instanceof DoubleVector d) {
      target.appendDouble(d.getDouble(i));
    } else if (source instanceof BoolVector b) {
      target.appendBoolean(b.getBoolean(i));
    } else if (source instanceof ShortVector s) {
      target.appendShort(s.getShort(i));
    } else if (source instanceof FloatVector f) {
      target.appendFloat(f.getFloat(i));
    } else if (source instanceof IntervalVector iv) {
      target.append(new Interval(iv.months(i), iv.days(i), iv.micros(i)));
    } else {
      target.append(source.get(i));
    }
  }
}
