package dev.tideway.common.types;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Operations on single SQL values: SQL ordering and the PostgreSQL text format (what {@code psql}
 * shows and what the chunk DSL reads and writes).
 *
 * <p>Ordering is SQL's: numbers by value ({@code -0.0 = 0.0}, {@code NaN} above every other number,
 * as in PostgreSQL), strings by UTF-8 bytes (the {@code C} collation), {@code bytea} by unsigned
 * bytes, {@code DECIMAL} ignoring trailing zeros ({@code 1.0 = 1.00}).
 */
public final class Datums {
  private static final DateTimeFormatter TIME_TEXT =
      new DateTimeFormatterBuilder()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.MICRO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .append(TIME_TEXT)
          .toFormatter(Locale.ROOT);

  /** Accepts {@code 2024-01-01 12:00:00} and the ISO {@code 2024-01-01T12:00:00}. */
  private static final DateTimeFormatter TIMESTAMP_TEXT_PARSE =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .append(TIME_TEXT)
          .toFormatter(Locale.ROOT);

  private static final DateTimeFormatter TIMESTAMPTZ_TEXT =
      new DateTimeFormatterBuilder()
          .append(TIMESTAMP_TEXT)
          .appendOffset("+HH:mm", "+00")
          .toFormatter(Locale.ROOT);
  private static final DateTimeFormatter TIMESTAMPTZ_TEXT_PARSE =
      new DateTimeFormatterBuilder()
          .append(TIMESTAMP_TEXT_PARSE)
          .optionalStart()
          .appendLiteral('Z')
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH:MM", "+00")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH", "+00")
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private Datums() {}

  /**
   * Compares two non-null values of {@code type} in SQL order. Use {@link #compareNullable} when
   * either may be null.
   */
  public static int compare(DataType type, Object a, Object b) {
    return switch (type.id()) {
      case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
      case SMALLINT -> Short.compare((Short) a, (Short) b);
      case INT -> Integer.compare((Integer) a, (Integer) b);
      case BIGINT -> Long.compare((Long) a, (Long) b);
      case REAL -> Float.compare(normalize((Float) a), normalize((Float) b));
      case DOUBLE -> Double.compare(normalize((Double) a), normalize((Double) b));
      case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
      case VARCHAR ->
          Arrays.compareUnsigned(
              ((String) a).getBytes(StandardCharsets.UTF_8),
              ((String) b).getBytes(StandardCharsets.UTF_8));
      case BYTEA -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      case DATE -> ((LocalDate) a).compareTo((LocalDate) b);
      case TIME -> ((LocalTime) a).compareTo((LocalTime) b);
      case TIMESTAMP -> ((LocalDateTime) a).compareTo((LocalDateTime) b);
      case TIMESTAMPTZ -> ((Instant) a).compareTo((Instant) b);
      case INTERVAL -> ((Interval) a).compareTo((Interval) b);
    };
  }

  /** SQL order with NULL placed first or last. */
  public static int compareNullable(DataType type, Object a, Object b, boolean nullsFirst) {
    if (a == null || b == null) {
      if (a == b) {
        return 0;
      }
      return (a == null) == nullsFirst ? -1 : 1;
    }
    return compare(type, a, b);
  }

  /**
   * {@code -0.0} becomes {@code 0.0} and every NaN the canonical one, so equal values are equal.
   */
  public static double normalize(double d) {
    return d == 0.0 ? 0.0 : Double.isNaN(d) ? Double.NaN : d;
  }

  public static float normalize(float f) {
    return f == 0.0f ? 0.0f : Float.isNaN(f) ? Float.NaN : f;
  }

  /** The PostgreSQL text form of a non-null value. */
  public static String toText(DataType type, Object v) {
    return switch (type.id()) {
      case BOOLEAN -> (Boolean) v ? "t" : "f";
      case SMALLINT, INT, BIGINT -> v.toString();
      case REAL -> floatText((Float) v);
      case DOUBLE -> doubleText((Double) v);
      case DECIMAL -> ((BigDecimal) v).toPlainString();
      case VARCHAR -> (String) v;
      case BYTEA -> "\\x" + HexFormat.of().formatHex((byte[]) v);
      case DATE -> v.toString();
      case TIME -> TIME_TEXT.format((LocalTime) v);
      case TIMESTAMP -> TIMESTAMP_TEXT.format((LocalDateTime) v);
      case TIMESTAMPTZ -> TIMESTAMPTZ_TEXT.format(((Instant) v).atOffset(ZoneOffset.UTC));
      case INTERVAL -> v.toString();
    };
  }

  private static String doubleText(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return d == 0 && 1 / d < 0 ? "-0" : shortestText(Double.toString(d), 15);
  }

  /**
   * PostgreSQL's text form of a float ({@code float8out}, {@code float4out} since PostgreSQL 12):
   * the shortest digits that read back exactly, plain when the decimal exponent is in {@code [-4,
   * maxExponent)}, else {@code d.ddde+XX}. {@code javaText} is Java's shortest form of the value.
   */
  private static String shortestText(String javaText, int maxExponent) {
    BigDecimal b = new BigDecimal(javaText).stripTrailingZeros();
    if (b.signum() == 0) {
      return "0";
    }
    int exp = b.precision() - b.scale() - 1;
    if (exp >= -4 && exp < maxExponent) {
      return b.toPlainString();
    }
    String digits = b.unscaledValue().abs().toString();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    int a = Math.abs(exp);
    return (b.signum() < 0 ? "-" : "")
        + mantissa
        + "e"
        + (exp < 0 ? "-" : "+")
        + (a < 10 ? "0" : "")
        + a;
  }

  private static String floatText(float f) {
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "Infinity" : "-Infinity";
    }
    return f == 0 && 1 / f < 0 ? "-0" : shortestText(Float.toString(f), 6);
  }

  /**
   * Parses the PostgreSQL text form into a value of {@code type}; fails with a message naming the
   * type and the text.
   */
  public static Object fromText(DataType type, String s) {
    try {
      return switch (type.id()) {
        case BOOLEAN -> parseBool(s);
        case SMALLINT -> Short.parseShort(s.trim());
        case INT -> Integer.parseInt(s.trim());
        case BIGINT -> Long.parseLong(s.trim());
        case REAL -> Float.parseFloat(s.trim());
        case DOUBLE -> Double.parseDouble(s.trim());
        case DECIMAL -> decimal(type, new BigDecimal(s.trim()));
        case VARCHAR -> s;
        case BYTEA -> parseBytea(s);
        case DATE -> LocalDate.parse(s.trim());
        case TIME -> LocalTime.parse(s.trim(), TIME_TEXT);
        case TIMESTAMP -> parseTimestamp(s.trim());
        case TIMESTAMPTZ -> parseTimestamptz(s.trim());
        case INTERVAL -> parseInterval(s);
      };
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException(
          "invalid input syntax for type " + type.sqlName() + ": \"" + s + "\"", e);
    }
  }

  /**
   * A timestamp without time zone; as PostgreSQL, a zone written after it ({@code +00}, {@code
   * +05:30}) is accepted and ignored.
   */
  private static LocalDateTime parseTimestamp(String s) {
    try {
      return LocalDateTime.parse(s, TIMESTAMP_TEXT_PARSE);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(s, TIMESTAMPTZ_TEXT_PARSE).toLocalDateTime();
      } catch (DateTimeParseException ignored) {
        throw e;
      }
    }
  }

  /** A timestamp with time zone; one written without a zone is in UTC (the session's zone). */
  private static java.time.Instant parseTimestamptz(String s) {
    try {
      return OffsetDateTime.parse(s, TIMESTAMPTZ_TEXT_PARSE).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return LocalDateTime.parse(s, TIMESTAMP_TEXT_PARSE).toInstant(java.time.ZoneOffset.UTC);
      } catch (DateTimeParseException ignored) {
        throw e;
      }
    }
  }

  /**
   * Rounds a decimal to the type's scale (half up, as PostgreSQL) and checks its precision; an
   * unconstrained decimal only loses a negative scale.
   */
  public static BigDecimal decimal(DataType type, BigDecimal v) {
    if (type.precision() == 0) {
      // PostgreSQL's numeric has no negative scale: 1E+3 is stored (and printed) as 1000.
      return v.scale() < 0 ? v.setScale(0) : v;
    }
    BigDecimal scaled = v.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
    if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
      throw new ArithmeticException(
          "numeric field overflow: " + v + " does not fit " + type.sqlName());
    }
    return scaled;
  }

  private static Boolean parseBool(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "t", "true", "yes", "y", "on", "1" -> Boolean.TRUE;
      case "f", "false", "no", "n", "off", "0" -> Boolean.FALSE;
      default ->
          throw new IllegalArgumentException(
              "invalid input syntax for type boolean: \"" + s + "\"");
    };
  }

  private static byte[] parseBytea(String s) {
    if (s.startsWith("\\x")) {
      return HexFormat.of().parseHex(s.substring(2));
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses the PostgreSQL output style: {@code [N year[s]] [N mon[s]] [N day[s]] [-]HH:MM:SS[.f]},
   * also {@code N hour[s]}, {@code N min[s]}, {@code N sec[s]}.
   */
  static Interval parseInterval(String s) {
    String[] t = s.trim().toLowerCase(Locale.ROOT).split("\\s+");
    int months = 0;
    int days = 0;
    long micros = 0;
    int i = 0;
    while (i < t.length) {
      String tok = t[i];
      if (tok.contains(":")) {
        boolean neg = tok.startsWith("-");
        String[] hms = (neg ? tok.substring(1) : tok).split(":");
        if (hms.length != 3) {
          throw new NumberFormatException("bad time part " + tok);
        }
        // Accumulate with the sign applied to each part: the most negative interval's magnitude
        // does not fit a long.
        long sign = neg ? -1 : 1;
        BigDecimal secs = new BigDecimal(hms[2]);
        long us =
            Math.addExact(
                Math.multiplyExact(sign * Long.parseLong(hms[0]), 3_600_000_000L),
                Math.addExact(
                    Math.multiplyExact(sign * Long.parseLong(hms[1]), 60_000_000L),
                    (neg ? secs.negate() : secs).movePointRight(6).longValueExact()));
        micros = Math.addExact(micros, us);
        i++;
        continue;
      }
      if (i + 1 >= t.length) {
        throw new NumberFormatException("number without unit: " + tok);
      }
      String unit = t[i + 1];
      if (unit.startsWith("year")) {
        months = Math.addExact(months, Math.multiplyExact(Integer.parseInt(tok), 12));
      } else if (unit.startsWith("mon")) {
        months = Math.addExact(months, Integer.parseInt(tok));
      } else if (unit.startsWith("day")) {
        days = Math.addExact(days, Integer.parseInt(tok));
      } else if (unit.startsWith("hour")) {
        micros = Math.addExact(micros, Math.multiplyExact(Long.parseLong(tok), 3_600_000_000L));
      } else if (unit.startsWith("min")) {
        micros = Math.addExact(micros, Math.multiplyExact(Long.parseLong(tok), 60_000_000L));
      } else if (unit.startsWith("sec")) {
        micros = Math.addExact(micros, new BigDecimal(tok).movePointRight(6).longValueExact());
      } else {
        throw new NumberFormatException("unknown interval unit " + unit);
      }
      i += 2;
    }
    return new Interval(months, days, micros);
  }
}
