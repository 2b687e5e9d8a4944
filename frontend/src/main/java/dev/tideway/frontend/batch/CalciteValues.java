package dev.tideway.frontend.batch;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Converts values between Tideway's Java classes (see {@link DataType}) and Calcite's: its internal
 * representation inside scans (dates as int days, times and timestamps as int/long
 * <b>milliseconds</b>, so batch reads drop sub-millisecond digits) and its JDBC results.
 */
public final class CalciteValues {
  static final Calendar UTC = Calendar.getInstance(TimeZone.getTimeZone("UTC"), Locale.ROOT);

  private CalciteValues() {}

  /** A Tideway value as Calcite's internal representation (for scans). */
  public static Object toInternal(DataType t, Object v) {
    if (v == null) {
      return null;
    }
    return switch (t.id()) {
      case BYTEA -> new ByteString((byte[]) v);
      case DATE -> (int) ((LocalDate) v).toEpochDay();
      case TIME -> (int) (Temporals.timeToMicros((LocalTime) v) / 1000);
      case TIMESTAMP -> Temporals.timestampToMicros((LocalDateTime) v) / 1000;
      case TIMESTAMPTZ -> Temporals.instantToMicros((Instant) v) / 1000;
      case INTERVAL -> {
        Interval i = (Interval) v;
        yield i.days() * 86_400_000L + i.micros() / 1000 + i.months() * 30L * 86_400_000L;
      }
      case DECIMAL -> (BigDecimal) v;
      default -> v;
    };
  }

  /**
   * An unconstrained value Calcite had to give a scale (a cast to bare {@code numeric} has {@link
   * TwTypeSystem#UNCONSTRAINED_SCALE}) without the trailing zeros that scale added: {@code
   * 0.5::float8::numeric} is {@code 0.5}, as in PostgreSQL.
   */
  private static BigDecimal unconstrained(DataType t, BigDecimal v) {
    if (t.precision() > 0 || v.scale() != TwTypeSystem.UNCONSTRAINED_SCALE) {
      return v;
    }
    BigDecimal s = v.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0) : s;
  }

  /** The Tideway type of result column {@code i} (1-based). */
  static DataType columnType(ResultSetMetaData md, int i) throws SQLException {
    String name = md.getColumnTypeName(i).toUpperCase(Locale.ROOT);
    if (name.contains("LOCAL_TIME_ZONE") || name.contains("WITH_TIME_ZONE")) {
      return DataType.TIMESTAMPTZ;
    }
    if (name.startsWith("INTERVAL")) {
      return DataType.INTERVAL;
    }
    return switch (md.getColumnType(i)) {
      case Types.BOOLEAN, Types.BIT -> DataType.BOOLEAN;
      case Types.TINYINT, Types.SMALLINT -> DataType.SMALLINT;
      case Types.INTEGER -> DataType.INT;
      case Types.BIGINT -> DataType.BIGINT;
      case Types.REAL -> DataType.REAL;
      case Types.FLOAT, Types.DOUBLE -> DataType.DOUBLE;
      case Types.DECIMAL, Types.NUMERIC -> {
        int p = md.getPrecision(i);
        int s = md.getScale(i);
        yield p > 0
                && p < TwTypeSystem.UNCONSTRAINED_PRECISION
                && s >= 0
                && s < TwTypeSystem.UNCONSTRAINED_SCALE
                && s <= p
            ? DataType.decimal(p, s)
            : DataType.DECIMAL;
      }
      case Types.BINARY, Types.VARBINARY -> DataType.BYTEA;
      case Types.DATE -> DataType.DATE;
      case Types.TIME -> DataType.TIME;
      case Types.TIMESTAMP -> DataType.TIMESTAMP;
      case Types.TIMESTAMP_WITH_TIMEZONE -> DataType.TIMESTAMPTZ;
      default -> DataType.VARCHAR;
    };
  }

  /** Reads result column {@code i} (1-based) as a Tideway value of {@code t}. */
  static Object read(ResultSet rs, int i, DataType t) throws SQLException {
    Object v;
    switch (t.id()) {
      case DATE -> {
        java.sql.Date d = rs.getDate(i, UTC);
        v = d == null ? null : LocalDate.ofEpochDay(Math.floorDiv(d.getTime(), 86_400_000L));
      }
      case TIME -> {
        java.sql.Time tm = rs.getTime(i, UTC);
        v =
            tm == null
                ? null
                : LocalTime.ofNanoOfDay(Math.floorMod(tm.getTime(), 86_400_000L) * 1_000_000L);
      }
      case TIMESTAMP -> {
        java.sql.Timestamp ts = rs.getTimestamp(i, UTC);
        v = ts == null ? null : LocalDateTime.ofInstant(ts.toInstant(), ZoneOffset.UTC);
      }
      case TIMESTAMPTZ -> {
        java.sql.Timestamp ts = rs.getTimestamp(i, UTC);
        v = ts == null ? null : ts.toInstant();
      }
      default -> {
        v = rs.getObject(i);
        if (v instanceof java.sql.Array array) {
          v = arrayText(elements(array.getArray())); // array_agg, ARRAY[...], ...
        }
      }
    }
    return v == null ? null : coerce(t, v);
  }

  /** The elements of a JDBC array's value: boxed when Calcite hands a primitive array. */
  private static java.util.List<Object> elements(Object array) {
    if (array instanceof Object[] objects) {
      return java.util.Arrays.asList(objects);
    }
    int n = java.lang.reflect.Array.getLength(array);
    java.util.List<Object> out = new java.util.ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(java.lang.reflect.Array.get(array, i));
    }
    return out;
  }

  /** Coerces a JDBC or Calcite value to the Java class of {@code t}. */
  public static Object coerce(DataType t, Object v) {
    if (v == null) {
      return null;
    }
    return switch (t.id()) {
      case BOOLEAN -> v instanceof Boolean ? v : Boolean.valueOf(v.toString());
      case SMALLINT -> ((Number) v).shortValue();
      case INT -> ((Number) v).intValue();
      case BIGINT -> ((Number) v).longValue();
      case REAL -> ((Number) v).floatValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case DECIMAL ->
          unconstrained(t, v instanceof BigDecimal b ? b : new BigDecimal(v.toString()));
      case VARCHAR -> v instanceof String ? v : v.toString();
      case BYTEA ->
          v instanceof ByteString b
              ? b.getBytes()
              : v instanceof byte[]
                  ? v
                  : v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      case INTERVAL ->
          v instanceof Interval
              ? v
              : v instanceof Integer m
                  ? new Interval(m, 0, 0)
                  : Interval.ofMicros(((Number) v).longValue() * 1000);
      default -> v;
    };
  }

  /** PostgreSQL's text form of an array: {@code {1,2,NULL,"a b"}}. */
  public static String arrayText(java.util.List<?> list) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < list.size(); i++) {
      Object e = list.get(i);
      if (i > 0) {
        sb.append(',');
      }
      if (e == null) {
        sb.append("NULL");
      } else if (e instanceof java.util.List<?> inner) {
        sb.append(arrayText(inner));
      } else if (e instanceof Boolean b) {
        sb.append(b ? 't' : 'f');
      } else {
        String t = e.toString();
        boolean quote =
            t.isEmpty()
                || t.equalsIgnoreCase("NULL")
                || t.chars().anyMatch(c -> "{},\"\\".indexOf(c) >= 0 || Character.isWhitespace(c));
        if (quote) {
          sb.append('"').append(t.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        } else {
          sb.append(t);
        }
      }
    }
    return sb.append('}').toString();
  }

  /**
   * A number as the Java class Calcite's code expects for the parameter's place: a client may send
   * any integer type (psycopg sends a small Python int as int2 for {@code LIMIT %s}, where
   * Calcite's code casts to Integer). Out of range is 22003, as PostgreSQL answers.
   */
  static Object asDeclared(Object v, int sqlType) {
    if (!(v instanceof Number n) || v instanceof BigDecimal && sqlType == java.sql.Types.DECIMAL) {
      return v;
    }
    try {
      return switch (sqlType) {
        case java.sql.Types.SMALLINT, java.sql.Types.TINYINT ->
            n instanceof Short ? n : Short.valueOf(exact(n).shortValueExact());
        case java.sql.Types.INTEGER ->
            n instanceof Integer ? n : Integer.valueOf(exact(n).intValueExact());
        case java.sql.Types.BIGINT ->
            n instanceof Long ? n : Long.valueOf(exact(n).longValueExact());
        case java.sql.Types.DOUBLE, java.sql.Types.FLOAT -> n.doubleValue();
        case java.sql.Types.REAL -> n.floatValue();
        case java.sql.Types.DECIMAL, java.sql.Types.NUMERIC -> exact(n);
        default -> v;
      };
    } catch (ArithmeticException e) {
      throw PgException.error(
          SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
          "parameter value " + v + " is out of range for its place (" + sqlType + ")");
    }
  }

  private static BigDecimal exact(Number n) {
    return n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
  }
}
