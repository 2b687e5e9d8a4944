package dev.tideway.common.types;

import dev.tideway.common.check.Checks;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Locale;

/**
 * An SQL type: a {@link TypeId} plus, for {@code DECIMAL}, its precision and scale ({@code 0, 0}
 * for every other type and for an unconstrained {@code NUMERIC}).
 *
 * <p>Every type has one Java value class used in {@link dev.tideway.common.row.Row}s and at the
 * edges of column vectors:
 *
 * <pre>
 * BOOLEAN Boolean      SMALLINT Short        INT Integer        BIGINT Long
 * REAL Float           DOUBLE Double         DECIMAL BigDecimal VARCHAR String
 * BYTEA byte[]         DATE LocalDate        TIME LocalTime (µs) TIMESTAMP LocalDateTime (µs)
 * TIMESTAMPTZ Instant (µs)                   INTERVAL Interval
 * </pre>
 *
 * SQL {@code NULL} is Java {@code null} for every type.
 */
public record DataType(TypeId id, int precision, int scale) {
  public static final int MAX_DECIMAL_PRECISION = 1000;

  public static final DataType BOOLEAN = new DataType(TypeId.BOOLEAN, 0, 0);
  public static final DataType SMALLINT = new DataType(TypeId.SMALLINT, 0, 0);
  public static final DataType INT = new DataType(TypeId.INT, 0, 0);
  public static final DataType BIGINT = new DataType(TypeId.BIGINT, 0, 0);
  public static final DataType REAL = new DataType(TypeId.REAL, 0, 0);
  public static final DataType DOUBLE = new DataType(TypeId.DOUBLE, 0, 0);
  public static final DataType DECIMAL = new DataType(TypeId.DECIMAL, 0, 0);
  public static final DataType VARCHAR = new DataType(TypeId.VARCHAR, 0, 0);
  public static final DataType BYTEA = new DataType(TypeId.BYTEA, 0, 0);
  public static final DataType DATE = new DataType(TypeId.DATE, 0, 0);
  public static final DataType TIME = new DataType(TypeId.TIME, 0, 0);
  public static final DataType TIMESTAMP = new DataType(TypeId.TIMESTAMP, 0, 0);
  public static final DataType TIMESTAMPTZ = new DataType(TypeId.TIMESTAMPTZ, 0, 0);
  public static final DataType INTERVAL = new DataType(TypeId.INTERVAL, 0, 0);

  public DataType {
    Checks.checkArgument(id != null, "type id must not be null");
    if (id == TypeId.DECIMAL) {
      Checks.checkArgument(
          precision >= 0 && precision <= MAX_DECIMAL_PRECISION,
          "DECIMAL precision must be in [1, %s], got %s",
          MAX_DECIMAL_PRECISION,
          precision);
      Checks.checkArgument(
          scale >= 0 && (precision == 0 ? scale == 0 : scale <= precision),
          "DECIMAL scale must be in [0, precision=%s], got %s",
          precision,
          scale);
    } else {
      Checks.checkArgument(
          precision == 0 && scale == 0,
          "only DECIMAL takes precision/scale, got %s(%s,%s)",
          id,
          precision,
          scale);
    }
  }

  /** {@code DECIMAL(precision, scale)}. */
  public static DataType decimal(int precision, int scale) {
    Checks.checkArgument(precision >= 1, "DECIMAL precision must be >= 1, got %s", precision);
    return new DataType(TypeId.DECIMAL, precision, scale);
  }

  /**
   * The type for a plain id; fails for a {@code DECIMAL} with constraints (use {@link #decimal}).
   */
  public static DataType of(TypeId id) {
    return switch (id) {
      case BOOLEAN -> BOOLEAN;
      case SMALLINT -> SMALLINT;
      case INT -> INT;
      case BIGINT -> BIGINT;
      case REAL -> REAL;
      case DOUBLE -> DOUBLE;
      case DECIMAL -> DECIMAL;
      case VARCHAR -> VARCHAR;
      case BYTEA -> BYTEA;
      case DATE -> DATE;
      case TIME -> TIME;
      case TIMESTAMP -> TIMESTAMP;
      case TIMESTAMPTZ -> TIMESTAMPTZ;
      case INTERVAL -> INTERVAL;
    };
  }

  /**
   * Parses an SQL type name as users write it ({@code int}, {@code INTEGER}, {@code int4}, {@code
   * double precision}, {@code numeric(10,2)}, {@code timestamptz}, ...).
   */
  public static DataType parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    int paren = s.indexOf('(');
    if (paren > 0 && s.endsWith(")")) {
      String base = s.substring(0, paren).trim();
      if (base.equals("decimal") || base.equals("numeric")) {
        String[] parts = s.substring(paren + 1, s.length() - 1).split(",");
        try {
          int p = Integer.parseInt(parts[0].trim());
          int sc = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : 0;
          if (parts.length > 2) {
            throw new IllegalArgumentException("bad type '" + text + "'");
          }
          return decimal(p, sc);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("bad DECIMAL precision/scale in '" + text + "'");
        }
      }
      if (base.equals("varchar") || base.equals("character varying")) {
        return VARCHAR; // length limits are not enforced
      }
      throw new IllegalArgumentException("type '" + base + "' takes no parameters: '" + text + "'");
    }
    return switch (s) {
      case "boolean", "bool" -> BOOLEAN;
      case "smallint", "int2" -> SMALLINT;
      case "int", "integer", "int4" -> INT;
      case "bigint", "int8" -> BIGINT;
      case "real", "float4" -> REAL;
      case "double precision", "double", "float8", "float" -> DOUBLE;
      case "decimal", "numeric" -> DECIMAL;
      case "varchar", "character varying", "text", "string" -> VARCHAR;
      case "bytea" -> BYTEA;
      case "date" -> DATE;
      case "time", "time without time zone" -> TIME;
      case "timestamp", "timestamp without time zone" -> TIMESTAMP;
      case "timestamptz", "timestamp with time zone" -> TIMESTAMPTZ;
      case "interval" -> INTERVAL;
      default -> throw new IllegalArgumentException("unknown type '" + text + "'");
    };
  }

  /** The Java class of this type's non-null values. */
  public Class<?> javaClass() {
    return switch (id) {
      case BOOLEAN -> Boolean.class;
      case SMALLINT -> Short.class;
      case INT -> Integer.class;
      case BIGINT -> Long.class;
      case REAL -> Float.class;
      case DOUBLE -> Double.class;
      case DECIMAL -> BigDecimal.class;
      case VARCHAR -> String.class;
      case BYTEA -> byte[].class;
      case DATE -> LocalDate.class;
      case TIME -> LocalTime.class;
      case TIMESTAMP -> LocalDateTime.class;
      case TIMESTAMPTZ -> Instant.class;
      case INTERVAL -> Interval.class;
    };
  }

  /** True when {@code value} is {@code null} or of this type's Java class. */
  public boolean accepts(Object value) {
    return value == null || javaClass().isInstance(value);
  }

  /** The SQL spelling, e.g. {@code numeric(10,2)} or {@code bigint}. */
  public String sqlName() {
    if (id == TypeId.DECIMAL && precision > 0) {
      return "numeric(" + precision + "," + scale + ")";
    }
    return id.sqlName();
  }

  @Override
  public String toString() {
    return sqlName();
  }
}
