package dev.tideway.common.key;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.DoubleVector;
import dev.tideway.common.chunk.FloatVector;
import dev.tideway.common.chunk.IntVector;
import dev.tideway.common.chunk.IntervalVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.ShortVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes keys of a fixed list of column types and orders into memcomparable bytes, whose unsigned
 * lexicographic order ({@link Arrays#compareUnsigned}) equals the SQL order of the keys, and
 * decodes them back. The format is described in {@code package-info.java}; it is persisted, so
 * {@link #FORMAT_VERSION} names it.
 *
 * <p>Three ways in: {@link #encode(Row)} for convenience; {@link #encodeTo(GrowableBytes, Row)} to
 * append into a reused buffer (e.g. after a {@code table_id | vnode} prefix); {@link
 * #encodeTo(GrowableBytes, StreamChunk, int, int[])} to encode row {@code i} of a chunk straight
 * from its primitive columns without building a {@link Row} or boxing.
 *
 * <p>Immutable and thread-safe; the buffers passed in belong to the caller's thread.
 *
 * <p>Checks on per-row paths sit behind an {@code if} so they neither box nor allocate varargs
 * unless they fail.
 *
 * <p>Invariants: for keys {@code a}, {@code b} of these types, {@code
 * sign(compareUnsigned(encode(a), encode(b))) == sign(SQL compare(a, b))} column by column under
 * each column's {@link OrderType}; equal SQL values (1.0 and 1.00, -0.0 and 0.0) encode to equal
 * bytes; no encoding is a proper prefix of another of the same column, so multi-column keys and key
 * prefixes compose.
 */
public final class KeySerde {
  /** The version of the memcomparable format; bump only with a migration of stored keys. */
  public static final int FORMAT_VERSION = 1;

  /** NULL tag of a NULLS FIRST column: below {@link #PRESENT}. */
  static final byte NULL_FIRST = 0x00;

  /** Tag before every non-NULL value. */
  static final byte PRESENT = 0x01;

  /** NULL tag of a NULLS LAST column: above {@link #PRESENT}. */
  static final byte NULL_LAST = 0x02;

  private final DataType[] types;
  private final OrderType[] orders;

  /** Per column: the TypeId switched on in the loops (saves a record field read). */
  private final TypeId[] ids;

  /** Per column: 0 for ASC, 0xFF for DESC; XORed into value bytes. */
  private final int[] masks;

  /** Per column: the tag byte of NULL. */
  private final byte[] nullTags;

  public KeySerde(List<DataType> types, List<OrderType> orders) {
    if (types.size() != orders.size()) {
      Checks.checkArgument(
          false,
          "key has %s types but %s orders: %s %s",
          types.size(),
          orders.size(),
          types,
          orders);
    }
    int n = types.size();
    this.types = types.toArray(new DataType[0]);
    this.orders = orders.toArray(new OrderType[0]);
    ids = new TypeId[n];
    masks = new int[n];
    nullTags = new byte[n];
    for (int c = 0; c < n; c++) {
      Checks.checkNotNull(this.types[c], "key column type");
      Checks.checkNotNull(this.orders[c], "key column order");
      ids[c] = this.types[c].id();
      masks[c] = this.orders[c].descending() ? 0xFF : 0;
      nullTags[c] = this.orders[c].nullsFirst() ? NULL_FIRST : NULL_LAST;
    }
  }

  /** A key of {@code types}, every column {@code ASC NULLS LAST}. */
  public static KeySerde ascending(List<DataType> types) {
    return new KeySerde(types, java.util.Collections.nCopies(types.size(), OrderType.ASC));
  }

  public int columnCount() {
    return types.length;
  }

  public List<DataType> types() {
    return List.of(types);
  }

  public List<OrderType> orders() {
    return List.of(orders);
  }

  /** Unsigned lexicographic comparison of two encoded keys: the SQL order of the keys. */
  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** The encoding of {@code key} (one value per key column) as a new array. */
  public byte[] encode(Row key) {
    GrowableBytes out = new GrowableBytes(16 * types.length + 8);
    encodeTo(out, key);
    return out.toByteArray();
  }

  /** Appends the encoding of {@code key}, which has one value per key column. */
  public void encodeTo(GrowableBytes out, Row key) {
    if (key.size() != types.length) {
      Checks.checkArgument(
          false,
          "key %s has %s values but the key has %s columns %s",
          key,
          key.size(),
          types.length,
          List.of(types));
    }
    for (int c = 0; c < types.length; c++) {
      encodeValue(out, c, key.get(c));
    }
  }

  /**
   * Appends the encoding of the first {@code prefix.size()} key columns: the byte prefix shared by
   * every key starting with these values (for prefix scans).
   */
  public void encodePrefixTo(GrowableBytes out, Row prefix) {
    if (prefix.size() > types.length) {
      Checks.checkArgument(
          false,
          "prefix %s has %s values but the key has %s columns",
          prefix,
          prefix.size(),
          types.length);
    }
    for (int c = 0; c < prefix.size(); c++) {
      encodeValue(out, c, prefix.get(c));
    }
  }

  /** Appends the encoding of the key columns {@code keyIndices} of a full row. */
  public void encodeTo(GrowableBytes out, Row row, int[] keyIndices) {
    checkIndices(keyIndices);
    for (int c = 0; c < types.length; c++) {
      encodeValue(out, c, row.get(keyIndices[c]));
    }
  }

  /**
   * Appends the encoding of row {@code row} of {@code chunk}, key column {@code k} taken from chunk
   * column {@code columnIndices[k]} (whose type must be the key's). Reads the primitive arrays
   * directly: no {@link Row}, no boxing.
   */
  public void encodeTo(GrowableBytes out, StreamChunk chunk, int row, int[] columnIndices) {
    checkIndices(columnIndices);
    for (int c = 0; c < types.length; c++) {
      ColumnVector col = chunk.column(columnIndices[c]);
      if (col.type() != types[c] && !col.type().equals(types[c])) {
        Checks.checkArgument(
            false,
            "chunk column %s is %s but key column %s is %s",
            columnIndices[c],
            col.type(),
            c,
            types[c]);
      }
      encodeColumn(out, c, col, row);
    }
  }

  private void checkIndices(int[] indices) {
    if (indices.length != types.length) {
      Checks.checkArgument(
          false,
          "%s column indices %s for a key of %s columns",
          indices.length,
          Arrays.toString(indices),
          types.length);
    }
  }

  /*
   * Fixed-width values are XORed with the column's mask (0 or all ones) as they are written, which
   * is the DESC inversion without a second pass; variable-length values are inverted afterwards.
   */

  private void encodeValue(GrowableBytes out, int c, Object v) {
    if (v == null) {
      out.put(nullTags[c]);
      return;
    }
    out.put(PRESENT);
    int m = masks[c];
    long lm = m == 0 ? 0 : -1L;
    switch (ids[c]) {
      case BOOLEAN -> out.put(((Boolean) v ? 1 : 0) ^ m);
      case SMALLINT -> out.putShortBE((short) ((Short) v ^ 0x8000 ^ m << 8 ^ m));
      case INT -> out.putIntBE((Integer) v ^ Integer.MIN_VALUE ^ (int) lm);
      case DATE -> out.putIntBE(Temporals.dateToDays((LocalDate) v) ^ Integer.MIN_VALUE ^ (int) lm);
      case BIGINT -> out.putLongBE((Long) v ^ Long.MIN_VALUE ^ lm);
      case TIME -> out.putLongBE(Temporals.timeToMicros((LocalTime) v) ^ Long.MIN_VALUE ^ lm);
      case TIMESTAMP ->
          out.putLongBE(Temporals.timestampToMicros((LocalDateTime) v) ^ Long.MIN_VALUE ^ lm);
      case TIMESTAMPTZ ->
          out.putLongBE(Temporals.instantToMicros((Instant) v) ^ Long.MIN_VALUE ^ lm);
      case REAL -> out.putIntBE(Memcomparable.floatKey((Float) v) ^ (int) lm);
      case DOUBLE -> out.putLongBE(Memcomparable.doubleKey((Double) v) ^ lm);
      default -> encodeVariable(out, c, v);
    }
  }

  private void encodeColumn(GrowableBytes out, int c, ColumnVector col, int i) {
    if (col.isNull(i)) {
      out.put(nullTags[c]);
      return;
    }
    out.put(PRESENT);
    int m = masks[c];
    long lm = m == 0 ? 0 : -1L;
    switch (ids[c]) {
      case BOOLEAN -> out.put((((BoolVector) col).getBoolean(i) ? 1 : 0) ^ m);
      case SMALLINT ->
          out.putShortBE((short) (((ShortVector) col).getShort(i) ^ 0x8000 ^ m << 8 ^ m));
      case INT, DATE -> out.putIntBE(((IntVector) col).getInt(i) ^ Integer.MIN_VALUE ^ (int) lm);
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ ->
          out.putLongBE(((LongVector) col).getLong(i) ^ Long.MIN_VALUE ^ lm);
      case REAL -> out.putIntBE(Memcomparable.floatKey(((FloatVector) col).getFloat(i)) ^ (int) lm);
      case DOUBLE -> out.putLongBE(Memcomparable.doubleKey(((DoubleVector) col).getDouble(i)) ^ lm);
      case INTERVAL -> {
        IntervalVector iv = (IntervalVector) col;
        int start = out.size();
        Memcomparable.writeInterval(out, iv.months(i), iv.days(i), iv.micros(i));
        if (m != 0) {
          out.invertFrom(start);
        }
      }
      default -> encodeVariable(out, c, col.get(i)); // DECIMAL, VARCHAR, BYTEA: objects anyway
    }
  }

  /** DECIMAL, VARCHAR, BYTEA and INTERVAL from their Java values; inverted afterwards for DESC. */
  private void encodeVariable(GrowableBytes out, int c, Object v) {
    int start = out.size();
    switch (ids[c]) {
      case DECIMAL -> Memcomparable.writeDecimal(out, (BigDecimal) v);
      case VARCHAR -> Memcomparable.writeString(out, (String) v);
      case BYTEA -> Memcomparable.writeBytes(out, (byte[]) v);
      case INTERVAL -> {
        Interval i = (Interval) v;
        Memcomparable.writeInterval(out, i.months(), i.days(), i.micros());
      }
      default -> throw new IllegalStateException("not a variable-width key type: " + ids[c]);
    }
    if (masks[c] != 0) {
      out.invertFrom(start);
    }
  }

  /** Decodes a whole encoded key. */
  public Row decode(byte[] key) {
    return decode(key, 0, key.length);
  }

  /**
   * Decodes the key in {@code bytes[offset, offset + length)} (e.g. after a storage-key prefix);
   * fails with {@link IllegalArgumentException} when the bytes are not one key of these types.
   * DECIMAL values come back at the column's scale when the type has one, otherwise without
   * trailing zeros (and scale >= 0).
   */
  public Row decode(byte[] bytes, int offset, int length) {
    Object[] values = new Object[types.length];
    int end = offset + length;
    int[] next = new int[1];
    int p = offset;
    try {
      for (int c = 0; c < types.length; c++) {
        p = decodeValue(bytes, p, c, values, next);
        if (p > end) {
          Checks.checkArgument(false, "key ends inside column %s", c);
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(corrupt(bytes, offset, length, "truncated"), e);
    } catch (IllegalArgumentException | java.time.DateTimeException e) {
      throw new IllegalArgumentException(corrupt(bytes, offset, length, e.getMessage()), e);
    }
    if (p != end) {
      throw new IllegalArgumentException(
          corrupt(bytes, offset, length, (end - p) + " trailing bytes"));
    }
    return Row.wrap(values);
  }

  private String corrupt(byte[] bytes, int offset, int length, String why) {
    return String.format(
        "cannot decode %s-byte key %s as %s %s: %s",
        length,
        java.util.HexFormat.of().formatHex(bytes, offset, offset + length),
        List.of(types),
        List.of(orders),
        why);
  }

  /** Decodes column {@code c} at {@code p} into {@code values[c]}; returns the next position. */
  private int decodeValue(byte[] b, int p, int c, Object[] values, int[] next) {
    byte tag = b[p++];
    if (tag == nullTags[c]) {
      values[c] = null;
      return p;
    }
    if (tag != PRESENT) {
      Checks.checkArgument(
          false, "tag 0x%02x of column %s at offset %s is neither NULL nor present", tag, c, p - 1);
    }
    int m = masks[c];
    long lm = m == 0 ? 0 : -1L;
    switch (ids[c]) {
      case BOOLEAN -> {
        int v = (b[p] ^ m) & 0xFF;
        if (v > 1) {
          Checks.checkArgument(false, "BOOLEAN byte 0x%02x", v);
        }
        values[c] = v == 1;
        return p + 1;
      }
      case SMALLINT -> {
        values[c] = (short) (GrowableBytes.getShortBE(b, p) ^ lm ^ 0x8000);
        return p + 2;
      }
      case INT, DATE -> {
        int v = (int) (GrowableBytes.getIntBE(b, p) ^ lm) ^ Integer.MIN_VALUE;
        values[c] = ids[c] == TypeId.INT ? (Object) v : Temporals.daysToDate(v);
        return p + 4;
      }
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> {
        long v = GrowableBytes.getLongBE(b, p) ^ lm ^ Long.MIN_VALUE;
        values[c] = fromLong(ids[c], v);
        return p + 8;
      }
      case REAL -> {
        values[c] = Memcomparable.floatFromKey((int) (GrowableBytes.getIntBE(b, p) ^ lm));
        return p + 4;
      }
      case DOUBLE -> {
        values[c] = Memcomparable.doubleFromKey(GrowableBytes.getLongBE(b, p) ^ lm);
        return p + 8;
      }
      case DECIMAL -> {
        values[c] = restoreScale(types[c], Memcomparable.readDecimal(b, p, m, next));
        return next[0];
      }
      case VARCHAR -> {
        values[c] = Memcomparable.readString(b, p, m, next);
        return next[0];
      }
      case BYTEA -> {
        long scan = Memcomparable.scanEscaped(b, p, m);
        values[c] = Memcomparable.readEscaped(b, p, (int) scan, m);
        return (int) (scan >>> 32);
      }
      case INTERVAL -> {
        Checks.checkArgument(p + Memcomparable.INTERVAL_BYTES <= b.length, "INTERVAL truncated");
        values[c] = Memcomparable.readInterval(b, p, m);
        return p + Memcomparable.INTERVAL_BYTES;
      }
    }
    throw new IllegalStateException("unhandled type " + ids[c]);
  }

  private static Object fromLong(TypeId id, long v) {
    return switch (id) {
      case TIME -> Temporals.microsToTime(v);
      case TIMESTAMP -> Temporals.microsToTimestamp(v);
      case TIMESTAMPTZ -> Temporals.microsToInstant(v);
      default -> v;
    };
  }

  /**
   * The key keeps no trailing zeros; give the value back the column's scale (exact: a value of the
   * column never has more fractional digits than its scale).
   */
  private static BigDecimal restoreScale(DataType type, BigDecimal v) {
    if (type.precision() > 0) {
      return v.scale() < type.scale() ? v.setScale(type.scale(), RoundingMode.UNNECESSARY) : v;
    }
    return v.scale() < 0 ? v.setScale(0, RoundingMode.UNNECESSARY) : v;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("KeySerde[");
    for (int c = 0; c < types.length; c++) {
      sb.append(c == 0 ? "" : ", ").append(types[c]).append(' ').append(orders[c]);
    }
    return sb.append(']').toString();
  }
}
