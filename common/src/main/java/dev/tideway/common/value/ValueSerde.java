package dev.tideway.common.value;

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
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

/**
 * The compact value encoding of a whole {@link Row} for state-store values. Unlike the key encoding
 * it need not sort, so it is smaller: a format byte, the column count, a NULL bitmap and the
 * non-NULL values back to back. Decoding needs the schema (the types are not stored).
 *
 * <pre>
 * format version 1:
 *   u8      format = 0x01
 *   varint  n = number of columns written
 *   u8[⌈n/8⌉] NULL bitmap: bit (i % 8) of byte (i / 8) set = column i is NULL
 *   then each non-NULL column in order:
 *     BOOLEAN                      u8 0 or 1
 *     SMALLINT                     i16 little-endian
 *     INT, DATE (days)             i32 LE
 *     BIGINT, TIME, TIMESTAMP[TZ]  i64 LE (µs)
 *     REAL, DOUBLE                 raw IEEE bits, 4 / 8 bytes LE (-0.0 and NaN kept as written)
 *     DECIMAL                      varint zigzag(scale), varint len, len bytes of the unscaled
 *                                  value in two's complement, big-endian
 *     VARCHAR                      varint len, len bytes UTF-8
 *     BYTEA                        varint len, len bytes
 *     INTERVAL                     i32 LE months, i32 LE days, i64 LE µs
 * </pre>
 *
 * Varints are unsigned LEB128. Schema evolution: a value written with fewer columns than the
 * decoding schema (the table gained trailing columns) decodes with the missing columns NULL; more
 * columns than the schema is an error. Unknown format versions fail naming the version.
 *
 * <p>Immutable and thread-safe; the buffers passed in belong to the caller's thread.
 *
 * <p>Checks on per-row paths sit behind an {@code if} so they neither box nor allocate varargs
 * unless they fail.
 */
public final class ValueSerde {
  /** The format version written in the first byte of every value. */
  public static final int FORMAT_VERSION = 1;

  private final DataType[] types;
  private final TypeId[] ids;

  public ValueSerde(List<DataType> types) {
    this.types = types.toArray(new DataType[0]);
    ids = new TypeId[this.types.length];
    for (int c = 0; c < ids.length; c++) {
      ids[c] = Checks.checkNotNull(this.types[c], "value column type").id();
    }
  }

  public List<DataType> types() {
    return List.of(types);
  }

  /** The encoding of {@code row} as a new array. */
  public byte[] encode(Row row) {
    GrowableBytes out = new GrowableBytes(8 * types.length + 8);
    encodeTo(out, row);
    return out.toByteArray();
  }

  /** Appends the encoding of {@code row}, whose values must match the types. */
  public void encodeTo(GrowableBytes out, Row row) {
    if (row.size() != types.length) {
      Checks.checkArgument(
          false,
          "row %s has %s values but the value schema has %s columns %s",
          row,
          row.size(),
          types.length,
          List.of(types));
    }
    int n = types.length;
    int bitmapAt = writeHeader(out, n);
    for (int c = 0; c < n; c++) {
      Object v = row.get(c);
      if (v == null) {
        out.array()[bitmapAt + (c >>> 3)] |= (byte) (1 << (c & 7));
      } else {
        writeValue(out, c, v);
      }
    }
  }

  /** Appends the encoding of row {@code row} of {@code chunk} (all its columns, same types). */
  public void encodeTo(GrowableBytes out, StreamChunk chunk, int row) {
    if (chunk.columnCount() != types.length) {
      Checks.checkArgument(
          false,
          "chunk has %s columns but the value schema has %s",
          chunk.columnCount(),
          types.length);
    }
    int n = types.length;
    int bitmapAt = writeHeader(out, n);
    for (int c = 0; c < n; c++) {
      ColumnVector col = chunk.column(c);
      if (col.isNull(row)) {
        out.array()[bitmapAt + (c >>> 3)] |= (byte) (1 << (c & 7));
      } else {
        writeColumn(out, c, col, row);
      }
    }
  }

  /** Writes format, count and a zeroed bitmap; returns the bitmap's offset. */
  private static int writeHeader(GrowableBytes out, int n) {
    out.put(FORMAT_VERSION);
    out.putVarInt(n);
    int bitmapBytes = (n + 7) >>> 3;
    out.ensureRemaining(bitmapBytes);
    int at = out.size();
    Arrays.fill(out.array(), at, at + bitmapBytes, (byte) 0);
    out.advanceTo(at + bitmapBytes);
    return at;
  }

  private void writeValue(GrowableBytes out, int c, Object v) {
    switch (ids[c]) {
      case BOOLEAN -> out.put((Boolean) v ? 1 : 0);
      case SMALLINT -> out.putShortLE((Short) v);
      case INT -> out.putIntLE((Integer) v);
      case DATE -> out.putIntLE(Temporals.dateToDays((LocalDate) v));
      case BIGINT -> out.putLongLE((Long) v);
      case TIME -> out.putLongLE(Temporals.timeToMicros((LocalTime) v));
      case TIMESTAMP -> out.putLongLE(Temporals.timestampToMicros((LocalDateTime) v));
      case TIMESTAMPTZ -> out.putLongLE(Temporals.instantToMicros((Instant) v));
      case REAL -> out.putIntLE(Float.floatToRawIntBits((Float) v));
      case DOUBLE -> out.putLongLE(Double.doubleToRawLongBits((Double) v));
      case DECIMAL -> writeDecimal(out, (BigDecimal) v);
      case VARCHAR -> writeString(out, (String) v);
      case BYTEA -> {
        byte[] b = (byte[]) v;
        out.putVarInt(b.length);
        out.put(b);
      }
      case INTERVAL -> {
        Interval i = (Interval) v;
        writeInterval(out, i.months(), i.days(), i.micros());
      }
    }
  }

  private void writeColumn(GrowableBytes out, int c, ColumnVector col, int i) {
    switch (ids[c]) {
      case BOOLEAN -> out.put(((BoolVector) col).getBoolean(i) ? 1 : 0);
      case SMALLINT -> out.putShortLE(((ShortVector) col).getShort(i));
      case INT, DATE -> out.putIntLE(((IntVector) col).getInt(i));
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> out.putLongLE(((LongVector) col).getLong(i));
      case REAL -> out.putIntLE(Float.floatToRawIntBits(((FloatVector) col).getFloat(i)));
      case DOUBLE -> out.putLongLE(Double.doubleToRawLongBits(((DoubleVector) col).getDouble(i)));
      case DECIMAL -> writeDecimal(out, (BigDecimal) col.get(i));
      case VARCHAR -> writeString(out, (String) col.get(i));
      case BYTEA -> {
        byte[] b = (byte[]) col.get(i);
        out.putVarInt(b.length);
        out.put(b);
      }
      case INTERVAL -> {
        IntervalVector iv = (IntervalVector) col;
        writeInterval(out, iv.months(i), iv.days(i), iv.micros(i));
      }
    }
  }

  private static void writeInterval(GrowableBytes out, int months, int days, long micros) {
    out.putIntLE(months);
    out.putIntLE(days);
    out.putLongLE(micros);
  }

  private static void writeDecimal(GrowableBytes out, BigDecimal v) {
    int scale = v.scale();
    out.putVarInt((scale << 1) ^ (scale >> 31));
    byte[] unscaled = v.unscaledValue().toByteArray();
    out.putVarInt(unscaled.length);
    out.put(unscaled);
  }

  /**
   * Writes a varint length and the UTF-8 bytes. {@link String#getBytes} is a JDK intrinsic for
   * ASCII and Latin-1 strings, faster here than encoding char by char despite the temporary array.
   */
  private static void writeString(GrowableBytes out, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    out.putVarInt(utf8.length);
    out.put(utf8);
  }

  /** Decodes a whole value. */
  public Row decode(byte[] value) {
    return decode(value, 0, value.length);
  }

  /**
   * Decodes the value in {@code bytes[offset, offset + length)}; fails with {@link
   * IllegalArgumentException} naming the format version when it is unknown, and naming the bytes
   * when they are not a value of this schema.
   */
  public Row decode(byte[] bytes, int offset, int length) {
    if (length <= 0) {
      Checks.checkArgument(false, "empty value cannot be decoded as %s", List.of(types));
    }
    int version = bytes[offset] & 0xFF;
    if (version != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          "unknown value format version "
              + version
              + " (this build reads version "
              + FORMAT_VERSION
              + "); the value was written by a newer or incompatible Tideway");
    }
    try {
      return decodeV1(bytes, offset + 1, offset + length);
    } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
      throw new IllegalArgumentException(corrupt(bytes, offset, length, "truncated"), e);
    } catch (IllegalArgumentException | java.time.DateTimeException e) {
      throw new IllegalArgumentException(corrupt(bytes, offset, length, e.getMessage()), e);
    }
  }

  private String corrupt(byte[] bytes, int offset, int length, String why) {
    String hex =
        java.util.HexFormat.of().formatHex(bytes, offset, offset + Math.min(length, 64))
            + (length > 64 ? "..." : "");
    return String.format(
        "cannot decode %s-byte value %s as %s: %s", length, hex, List.of(types), why);
  }

  private Row decodeV1(byte[] b, int start, int end) {
    int[] pos = {start};
    int n = readVarInt(b, pos);
    if (n < 0 || n > types.length) {
      Checks.checkArgument(
          false, "value has %s columns but the schema has only %s", n, types.length);
    }
    int bitmapAt = pos[0];
    int p = bitmapAt + ((n + 7) >>> 3);
    Object[] values = new Object[types.length];
    for (int c = 0; c < n; c++) {
      if ((b[bitmapAt + (c >>> 3)] & (1 << (c & 7))) != 0) {
        continue;
      }
      pos[0] = p;
      values[c] = readValue(b, c, pos);
      p = pos[0];
      if (p > end) {
        Checks.checkArgument(false, "value ends inside column %s", c);
      }
    }
    if (p != end) {
      Checks.checkArgument(false, "%s trailing bytes", end - p);
    }
    return Row.wrap(values);
  }

  private Object readValue(byte[] b, int c, int[] pos) {
    int p = pos[0];
    switch (ids[c]) {
      case BOOLEAN -> {
        pos[0] = p + 1;
        int v = b[p];
        if (v != 0 && v != 1) {
          Checks.checkArgument(false, "BOOLEAN byte %s in column %s", v, c);
        }
        return v == 1;
      }
      case SMALLINT -> {
        pos[0] = p + 2;
        return GrowableBytes.getShortLE(b, p);
      }
      case INT, DATE -> {
        pos[0] = p + 4;
        int v = GrowableBytes.getIntLE(b, p);
        return ids[c] == TypeId.INT ? (Object) v : Temporals.daysToDate(v);
      }
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> {
        pos[0] = p + 8;
        long v = GrowableBytes.getLongLE(b, p);
        return switch (ids[c]) {
          case TIME -> Temporals.microsToTime(v);
          case TIMESTAMP -> Temporals.microsToTimestamp(v);
          case TIMESTAMPTZ -> Temporals.microsToInstant(v);
          default -> v;
        };
      }
      case REAL -> {
        pos[0] = p + 4;
        return Float.intBitsToFloat(GrowableBytes.getIntLE(b, p));
      }
      case DOUBLE -> {
        pos[0] = p + 8;
        return Double.longBitsToDouble(GrowableBytes.getLongLE(b, p));
      }
      case DECIMAL -> {
        return readDecimal(b, c, pos);
      }
      case VARCHAR -> {
        int len = readVarInt(b, pos);
        String s = new String(b, pos[0], checkLength(b, pos[0], len), StandardCharsets.UTF_8);
        pos[0] += len;
        return s;
      }
      case BYTEA -> {
        int len = readVarInt(b, pos);
        byte[] v = Arrays.copyOfRange(b, pos[0], pos[0] + checkLength(b, pos[0], len));
        pos[0] += len;
        return v;
      }
      case INTERVAL -> {
        pos[0] = p + 16;
        return new Interval(
            GrowableBytes.getIntLE(b, p),
            GrowableBytes.getIntLE(b, p + 4),
            GrowableBytes.getLongLE(b, p + 8));
      }
    }
    throw new IllegalStateException("unhandled type " + ids[c]);
  }

  private static BigDecimal readDecimal(byte[] b, int c, int[] pos) {
    int zigzag = readVarInt(b, pos);
    int scale = (zigzag >>> 1) ^ -(zigzag & 1);
    int len = readVarInt(b, pos);
    if (len <= 0) {
      Checks.checkArgument(false, "DECIMAL of %s bytes in column %s", len, c);
    }
    BigInteger unscaled = new BigInteger(b, pos[0], checkLength(b, pos[0], len));
    pos[0] += len;
    return new BigDecimal(unscaled, scale);
  }

  private static int checkLength(byte[] b, int at, int len) {
    if (len < 0 || at + len > b.length || at + len < 0) {
      throw new IndexOutOfBoundsException("length " + len + " at offset " + at);
    }
    return len;
  }

  /** Reads an unsigned LEB128 varint at {@code pos[0]} and advances it. */
  static int readVarInt(byte[] b, int[] pos) {
    int p = pos[0];
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int x = b[p++];
      v |= (x & 0x7F) << shift;
      if (x >= 0) {
        pos[0] = p;
        return v;
      }
    }
    throw new IllegalArgumentException("varint longer than 5 bytes at offset " + pos[0]);
  }
}
