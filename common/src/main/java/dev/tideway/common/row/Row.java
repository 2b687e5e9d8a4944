package dev.tideway.common.row;

import dev.tideway.common.check.Checks;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable row of SQL values (Java values as {@link dev.tideway.common.types.DataType} maps
 * them; {@code null} is SQL NULL). Equality compares values, {@code byte[]} by content.
 *
 * <p>Rows are the convenient, boxed form used at the edges (DML, batch results, state table access,
 * tests); executors work on columnar {@link dev.tideway.common.chunk.StreamChunk}s.
 */
public final class Row {
  public static final Row EMPTY = new Row(new Object[0]);

  private final Object[] values;

  /** {@link #hashCode}, computed on first use (0: not yet, or a hash of 0). */
  private int hash;

  private Row(Object[] values) {
    this.values = values;
  }

  /** A row holding a copy of {@code values}. */
  public static Row of(Object... values) {
    return new Row(values.clone());
  }

  public static Row of(List<?> values) {
    return new Row(values.toArray());
  }

  /** Wraps {@code values} without copying; the caller must not modify the array afterwards. */
  public static Row wrap(Object[] values) {
    return new Row(values);
  }

  public int size() {
    return values.length;
  }

  public Object get(int i) {
    return values[Checks.checkIndex(i, values.length, "row column")];
  }

  public boolean isNull(int i) {
    return get(i) == null;
  }

  /** Whether some value is NULL. */
  public boolean hasNull() {
    for (Object v : values) {
      if (v == null) {
        return true;
      }
    }
    return false;
  }

  /** The values at {@code indices}, in that order. */
  public Row project(int[] indices) {
    Object[] out = new Object[indices.length];
    for (int i = 0; i < indices.length; i++) {
      out[i] = get(indices[i]);
    }
    return new Row(out);
  }

  /** This row followed by {@code other}. */
  public Row concat(Row other) {
    Object[] out = Arrays.copyOf(values, values.length + other.values.length);
    System.arraycopy(other.values, 0, out, values.length, other.values.length);
    return new Row(out);
  }

  public List<Object> toList() {
    return Arrays.asList(values.clone());
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Row r) || r.values.length != values.length) {
      return false;
    }
    if (hash != 0 && r.hash != 0 && hash != r.hash) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      Object a = values[i];
      Object b = r.values[i];
      if (a == b) {
        continue;
      }
      if (a == null || b == null) {
        return false;
      }
      if (a instanceof byte[] x) {
        if (!(b instanceof byte[] y) || !Arrays.equals(x, y)) {
          return false;
        }
      } else if (!valueEquals(a, b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * SQL equality of two non-null values of one column: numerics by value ({@code 0} and {@code
   * 0.000}, {@code 0.0} and {@code -0.0} are one group key, one join key), the rest by {@code
   * equals}.
   */
  private static boolean valueEquals(Object a, Object b) {
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y) == 0;
    }
    if (a instanceof Double x && b instanceof Double y) {
      return x.doubleValue() == y.doubleValue() || (x.isNaN() && y.isNaN());
    }
    if (a instanceof Float x && b instanceof Float y) {
      return x.floatValue() == y.floatValue() || (x.isNaN() && y.isNaN());
    }
    return a.equals(b);
  }

  /** A hash agreeing with {@link #valueEquals}. */
  private static int valueHash(Object v) {
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
    }
    if (v instanceof Double d) {
      return Double.hashCode(d == 0.0 ? 0.0 : d);
    }
    if (v instanceof Float f) {
      return Float.hashCode(f == 0.0f ? 0.0f : f);
    }
    return v instanceof byte[] b ? Arrays.hashCode(b) : v.hashCode();
  }

  /**
   * A hash of the values as {@code Arrays.deepHashCode} computes it ({@code byte[]} by content),
   * except that numerics hash by value (see {@link #equals}); cached: rows are map keys in
   * executors' caches and are hashed again on every probe.
   */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 1;
      for (Object v : values) {
        h = 31 * h + (v == null ? 0 : valueHash(v));
      }
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      Object v = values[i];
      sb.append(v instanceof byte[] b ? "\\x" + java.util.HexFormat.of().formatHex(b) : v);
    }
    return sb.append(')').toString();
  }
}
