package dev.tideway.frontend.pgwire;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Text and binary encodings of values (PostgreSQL's, as pgjdbc and psql read them). Binary
 * date/time values count from 2000-01-01 in microseconds; numerics are base-10000 digit groups.
 * Decoding failures are {@code 22P02} errors naming the type and the input.
 */
public final class PgCodec {
  private PgCodec() {}

  /** Days between 1970-01-01 and 2000-01-01. */
  static final int PG_EPOCH_DAYS = 10957;

  /** Microseconds between 1970-01-01 and 2000-01-01. */
  static final long PG_EPOCH_MICROS = PG_EPOCH_DAYS * 86_400_000_000L;

  /** The text form of a non-null value. */
  public static byte[] encodeText(DataType type, Object v) {
    return Datums.toText(type, v).getBytes(StandardCharsets.UTF_8);
  }

  /** The binary form of a non-null value. */
  public static byte[] encodeBinary(DataType type, Object v) {
    return switch (type.id()) {
      case BOOLEAN -> new byte[] {(byte) ((Boolean) v ? 1 : 0)};
      case SMALLINT -> ByteBuffer.allocate(2).putShort((Short) v).array();
      case INT -> ByteBuffer.allocate(4).putInt((Integer) v).array();
      case BIGINT -> ByteBuffer.allocate(8).putLong((Long) v).array();
      case REAL -> ByteBuffer.allocate(4).putFloat((Float) v).array();
      case DOUBLE -> ByteBuffer.allocate(8).putDouble((Double) v).array();
      case DECIMAL -> encodeNumeric((BigDecimal) v);
      case VARCHAR -> ((String) v).getBytes(StandardCharsets.UTF_8);
      case BYTEA -> (byte[]) v;
      case DATE ->
          ByteBuffer.allocate(4)
              .putInt(Temporals.dateToDays((LocalDate) v) - PG_EPOCH_DAYS)
              .array();
      case TIME -> ByteBuffer.allocate(8).putLong(Temporals.timeToMicros((LocalTime) v)).array();
      case TIMESTAMP ->
          ByteBuffer.allocate(8)
              .putLong(Temporals.timestampToMicros((LocalDateTime) v) - PG_EPOCH_MICROS)
              .array();
      case TIMESTAMPTZ ->
          ByteBuffer.allocate(8)
              .putLong(Temporals.instantToMicros((Instant) v) - PG_EPOCH_MICROS)
              .array();
      case INTERVAL -> {
        Interval i = (Interval) v;
        yield ByteBuffer.allocate(16)
            .putLong(i.micros())
            .putInt(i.days())
            .putInt(i.months())
            .array();
      }
    };
  }

  /** Parses a text parameter, accepting what pgjdbc sends (dates with a zone suffix, TRUE). */
  public static Object decodeText(DataType type, String s) {
    try {
      return switch (type.id()) {
        case DATE -> Datums.fromText(type, stripZone(s.trim()));
        case TIMESTAMP -> Datums.fromText(type, stripZone(s.trim()));
        case TIMESTAMPTZ -> Datums.fromText(type, withMinutes(s.trim()));
        default -> Datums.fromText(type, s);
      };
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.INVALID_TEXT_REPRESENTATION, e.getMessage());
    }
  }

  /** Parses a binary parameter. */
  public static Object decodeBinary(DataType type, byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b);
    try {
      return switch (type.id()) {
        case BOOLEAN -> b[0] != 0;
        case SMALLINT -> fixed(buf, 2).getShort();
        case INT -> fixed(buf, 4).getInt();
        case BIGINT -> fixed(buf, 8).getLong();
        case REAL -> fixed(buf, 4).getFloat();
        case DOUBLE -> fixed(buf, 8).getDouble();
        case DECIMAL -> decodeNumeric(buf);
        case VARCHAR -> new String(b, StandardCharsets.UTF_8);
        case BYTEA -> b;
        case DATE -> Temporals.daysToDate(fixed(buf, 4).getInt() + PG_EPOCH_DAYS);
        case TIME -> Temporals.microsToTime(fixed(buf, 8).getLong());
        case TIMESTAMP -> Temporals.microsToTimestamp(fixed(buf, 8).getLong() + PG_EPOCH_MICROS);
        case TIMESTAMPTZ -> Temporals.microsToInstant(fixed(buf, 8).getLong() + PG_EPOCH_MICROS);
        case INTERVAL -> {
          long micros = fixed(buf, 16).getLong();
          int days = buf.getInt();
          yield new Interval(buf.getInt(), days, micros);
        }
      };
    } catch (RuntimeException e) {
      if (e instanceof PgException pe) {
        throw pe;
      }
      throw PgException.error(
          SqlState.INVALID_PARAMETER_VALUE,
          "incorrect binary data format for type " + type.sqlName() + " (" + b.length + " bytes)");
    }
  }

  private static ByteBuffer fixed(ByteBuffer buf, int len) {
    if (buf.remaining() != len) {
      throw new IllegalArgumentException("expected " + len + " bytes, got " + buf.remaining());
    }
    return buf;
  }

  private static String stripZone(String s) {
    // "2024-01-02 +00" or "2024-01-02 03:04:05+00": drop a trailing numeric offset
    int plus = Math.max(s.lastIndexOf('+'), s.length() > 10 ? s.lastIndexOf('-') : -1);
    if (plus > 9) {
      return s.substring(0, plus).trim();
    }
    return s;
  }

  private static String withMinutes(String s) {
    // "+00" -> "+00:00" so that the common parser accepts it
    if (s.length() > 3 && (s.charAt(s.length() - 3) == '+' || s.charAt(s.length() - 3) == '-')) {
      return s + ":00";
    }
    return s;
  }

  static byte[] encodeNumeric(BigDecimal v) {
    int dscale = Math.max(0, v.scale());
    String plain = v.abs().setScale(dscale).toPlainString();
    int dot = plain.indexOf('.');
    String intPart = dot < 0 ? plain : plain.substring(0, dot);
    String fracPart = dot < 0 ? "" : plain.substring(dot + 1);
    intPart = intPart.replaceFirst("^0+", "");
    while (intPart.length() % 4 != 0) {
      intPart = "0" + intPart;
    }
    StringBuilder frac = new StringBuilder(fracPart);
    while (frac.length() % 4 != 0) {
      frac.append('0');
    }
    List<Short> digits = new ArrayList<>();
    for (int i = 0; i < intPart.length(); i += 4) {
      digits.add(Short.parseShort(intPart.substring(i, i + 4)));
    }
    int weight = digits.size() - 1;
    for (int i = 0; i < frac.length(); i += 4) {
      digits.add(Short.parseShort(frac.substring(i, i + 4)));
    }
    while (!digits.isEmpty() && digits.get(0) == 0) {
      digits.remove(0);
      weight--;
    }
    while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
      digits.remove(digits.size() - 1);
    }
    if (digits.isEmpty()) {
      weight = 0;
    }
    ByteBuffer out = ByteBuffer.allocate(8 + 2 * digits.size());
    out.putShort((short) digits.size()).putShort((short) weight);
    out.putShort((short) (v.signum() < 0 ? 0x4000 : 0)).putShort((short) dscale);
    digits.forEach(out::putShort);
    return out.array();
  }

  static BigDecimal decodeNumeric(ByteBuffer buf) {
    int ndigits = buf.getShort();
    int weight = buf.getShort();
    int sign = buf.getShort() & 0xffff;
    int dscale = buf.getShort();
    if (sign == 0xC000) {
      throw PgException.error(SqlState.INVALID_PARAMETER_VALUE, "numeric NaN is not supported");
    }
    BigInteger unscaled = BigInteger.ZERO;
    for (int i = 0; i < ndigits; i++) {
      unscaled =
          unscaled.multiply(BigInteger.valueOf(10000)).add(BigInteger.valueOf(buf.getShort()));
    }
    // value = unscaled * 10000^(weight - ndigits + 1)
    BigDecimal v = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - ndigits + 1));
    v = v.setScale(dscale, java.math.RoundingMode.UNNECESSARY);
    return sign == 0x4000 ? v.negate() : v;
  }
}
