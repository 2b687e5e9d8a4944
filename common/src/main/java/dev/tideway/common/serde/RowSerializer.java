package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ImmutableSerializer;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Writes a {@link Row} as a value count and, per value, a tag byte followed by the value. The tag
 * is 0 for SQL NULL and otherwise the {@link TypeId#code()} of the value's SQL type, inferred from
 * its Java class as {@link dev.tideway.common.types.DataType} maps them. Temporal values keep
 * nanoseconds, so every Java value round-trips exactly. A value of any other class fails to encode,
 * naming the class and the column.
 */
final class RowSerializer extends ImmutableSerializer<Row> {
  /** Values accepted per row when reading. */
  static final int MAX_VALUES = 1 << 16;

  RowSerializer() {
    setAcceptsNull(false);
  }

  @Override
  public void write(Kryo kryo, Output out, Row row) {
    out.writeVarInt(row.size(), true);
    for (int i = 0; i < row.size(); i++) {
      writeValue(out, row.get(i), i);
    }
  }

  @Override
  public Row read(Kryo kryo, Input in, Class<? extends Row> type) {
    int n = in.readVarInt(true);
    if (n < 0 || n > MAX_VALUES) {
      throw new KryoException("row value count " + n + " out of [0, " + MAX_VALUES + "]");
    }
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      values[i] = readValue(in, i);
    }
    return Row.wrap(values);
  }

  static void writeValue(Output out, Object v, int column) {
    if (v == null) {
      out.writeByte(0);
      return;
    }
    if (v instanceof Boolean b) {
      out.writeByte(TypeId.BOOLEAN.code());
      out.writeBoolean(b);
    } else if (v instanceof Short s) {
      out.writeByte(TypeId.SMALLINT.code());
      out.writeShort(s);
    } else if (v instanceof Integer i) {
      out.writeByte(TypeId.INT.code());
      out.writeVarInt(i, false);
    } else if (v instanceof Long l) {
      out.writeByte(TypeId.BIGINT.code());
      out.writeVarLong(l, false);
    } else if (v instanceof Float f) {
      out.writeByte(TypeId.REAL.code());
      out.writeFloat(f);
    } else if (v instanceof Double d) {
      out.writeByte(TypeId.DOUBLE.code());
      out.writeDouble(d);
    } else if (v instanceof BigDecimal d) {
      out.writeByte(TypeId.DECIMAL.code());
      out.writeVarInt(d.scale(), false);
      writeBytes(out, d.unscaledValue().toByteArray());
    } else if (v instanceof String s) {
      out.writeByte(TypeId.VARCHAR.code());
      out.writeString(s);
    } else if (v instanceof byte[] b) {
      out.writeByte(TypeId.BYTEA.code());
      writeBytes(out, b);
    } else {
      writeTemporal(out, v, column);
    }
  }

  private static void writeTemporal(Output out, Object v, int column) {
    if (v instanceof LocalDate d) {
      out.writeByte(TypeId.DATE.code());
      out.writeVarLong(d.toEpochDay(), false);
    } else if (v instanceof LocalTime t) {
      out.writeByte(TypeId.TIME.code());
      out.writeVarLong(t.toNanoOfDay(), true);
    } else if (v instanceof LocalDateTime ts) {
      out.writeByte(TypeId.TIMESTAMP.code());
      out.writeVarLong(ts.toLocalDate().toEpochDay(), false);
      out.writeVarLong(ts.toLocalTime().toNanoOfDay(), true);
    } else if (v instanceof Instant i) {
      out.writeByte(TypeId.TIMESTAMPTZ.code());
      out.writeVarLong(i.getEpochSecond(), false);
      out.writeVarInt(i.getNano(), true);
    } else if (v instanceof Interval iv) {
      out.writeByte(TypeId.INTERVAL.code());
      out.writeVarInt(iv.months(), false);
      out.writeVarInt(iv.days(), false);
      out.writeVarLong(iv.micros(), false);
    } else {
      throw new KryoException(
          "row column " + column + ": " + v.getClass().getName() + " is not an SQL value class");
    }
  }

  static Object readValue(Input in, int column) {
    byte tag = in.readByte();
    if (tag == 0) {
      return null;
    }
    TypeId id;
    try {
      id = TypeId.fromCode(tag);
    } catch (IllegalArgumentException e) {
      throw new KryoException("row column " + column + ": unknown value tag " + tag);
    }
    return switch (id) {
      case BOOLEAN -> in.readBoolean();
      case SMALLINT -> in.readShort();
      case INT -> in.readVarInt(false);
      case BIGINT -> in.readVarLong(false);
      case REAL -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case DECIMAL -> {
        int scale = in.readVarInt(false);
        yield new BigDecimal(new BigInteger(readBytes(in, column)), scale);
      }
      case VARCHAR -> {
        String s = in.readString();
        if (s == null) {
          throw new KryoException("row column " + column + ": null string under a VARCHAR tag");
        }
        yield s;
      }
      case BYTEA -> readBytes(in, column);
      case DATE -> LocalDate.ofEpochDay(in.readVarLong(false));
      case TIME -> LocalTime.ofNanoOfDay(in.readVarLong(true));
      case TIMESTAMP ->
          LocalDateTime.of(
              LocalDate.ofEpochDay(in.readVarLong(false)),
              LocalTime.ofNanoOfDay(in.readVarLong(true)));
      case TIMESTAMPTZ -> Instant.ofEpochSecond(in.readVarLong(false), in.readVarInt(true));
      case INTERVAL ->
          new Interval(in.readVarInt(false), in.readVarInt(false), in.readVarLong(false));
    };
  }

  private static void writeBytes(Output out, byte[] b) {
    out.writeVarInt(b.length, true);
    out.writeBytes(b);
  }

  private static byte[] readBytes(Input in, int column) {
    int len = in.readVarInt(true);
    if (len < 0 || (in.getInputStream() == null && len > in.limit() - in.position())) {
      throw new KryoException(
          "row column " + column + ": byte length " + len + " exceeds the input");
    }
    return in.readBytes(len);
  }
}
