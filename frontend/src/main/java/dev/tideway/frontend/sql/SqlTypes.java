package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.batch.TwTypeSystem;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/** Conversions between PostgreSQL type names, Tideway {@link DataType}s and Calcite types. */
public final class SqlTypes {
  private SqlTypes() {}

  /** The Calcite spelling of a PostgreSQL type name ({@code int8} → {@code BIGINT}). */
  static String calciteTypeName(String pgType) {
    String t = pgType.toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", " ");
    String args = t.contains("(") ? t.substring(t.indexOf('(')) : "";
    String base = t.replaceAll("\\(.*\\)", "").replace("[]", "").trim();
    return switch (base) {
      case "int2", "smallint" -> "SMALLINT";
      case "int4", "int", "integer" -> "INTEGER";
      case "int8", "bigint", "oid" -> "BIGINT";
      case "float4", "real" -> "REAL";
      case "float8", "double precision", "float" -> "DOUBLE";
      case "numeric", "decimal" -> "DECIMAL" + args;
      case "text",
          "varchar",
          "character varying",
          "name",
          "bpchar",
          "char",
          "character",
          "string" ->
          "VARCHAR";
      case "bool", "boolean" -> "BOOLEAN";
      case "bytea" -> "VARBINARY";
      case "date" -> "DATE";
      case "time", "time without time zone" -> "TIME";
      case "timestamp", "timestamp without time zone" -> "TIMESTAMP";
      case "timestamptz", "timestamp with time zone" -> "TIMESTAMP WITH LOCAL TIME ZONE";
      default -> pgType;
    };
  }

  /** Whether a type name (PostgreSQL's or Calcite's) is an integer type. */
  static boolean isIntegerTypeName(String name) {
    String c = calciteTypeName(name.toLowerCase(java.util.Locale.ROOT));
    return c.equals("SMALLINT") || c.equals("INTEGER") || c.equals("BIGINT");
  }

  /** The Calcite SQL spelling of a Tideway type (for CASTs). */
  public static String calciteName(DataType t) {
    return switch (t.id()) {
      case BOOLEAN -> "BOOLEAN";
      case SMALLINT -> "SMALLINT";
      case INT -> "INTEGER";
      case BIGINT -> "BIGINT";
      case REAL -> "REAL";
      case DOUBLE -> "DOUBLE";
      case DECIMAL ->
          t.precision() > 0 ? "DECIMAL(" + t.precision() + ", " + t.scale() + ")" : "DECIMAL";
      case VARCHAR -> "VARCHAR";
      case BYTEA -> "VARBINARY";
      case DATE -> "DATE";
      case TIME -> "TIME";
      case TIMESTAMP -> "TIMESTAMP";
      case TIMESTAMPTZ -> "TIMESTAMP WITH LOCAL TIME ZONE";
      case INTERVAL -> "VARCHAR";
    };
  }

  /** The Tideway type of a Calcite type; {@code 0A000} naming it when Tideway has none. */
  public static DataType toDataType(RelDataType t) {
    return switch (t.getSqlTypeName()) {
      case BOOLEAN -> DataType.BOOLEAN;
      case TINYINT, SMALLINT -> DataType.SMALLINT;
      case INTEGER -> DataType.INT;
      case BIGINT -> DataType.BIGINT;
      case REAL, FLOAT -> DataType.REAL;
      case DOUBLE -> DataType.DOUBLE;
      case DECIMAL ->
          t.getPrecision() > 0
                  && t.getPrecision() <= DataType.MAX_DECIMAL_PRECISION
                  && t.getPrecision() < TwTypeSystem.UNCONSTRAINED_PRECISION
                  && t.getScale() < TwTypeSystem.UNCONSTRAINED_SCALE
              ? DataType.decimal(t.getPrecision(), Math.max(0, t.getScale()))
              : DataType.DECIMAL;
      case CHAR, VARCHAR, NULL, SYMBOL -> DataType.VARCHAR;
      case BINARY, VARBINARY -> DataType.BYTEA;
      case DATE -> DataType.DATE;
      case TIME -> DataType.TIME;
      case TIMESTAMP -> DataType.TIMESTAMP;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataType.TIMESTAMPTZ;
      case INTERVAL_YEAR,
          INTERVAL_YEAR_MONTH,
          INTERVAL_MONTH,
          INTERVAL_DAY,
          INTERVAL_DAY_HOUR,
          INTERVAL_DAY_MINUTE,
          INTERVAL_DAY_SECOND,
          INTERVAL_HOUR,
          INTERVAL_HOUR_MINUTE,
          INTERVAL_HOUR_SECOND,
          INTERVAL_MINUTE,
          INTERVAL_MINUTE_SECOND,
          INTERVAL_SECOND ->
          DataType.INTERVAL;
      default -> throw PgException.unsupported("type " + t.getFullTypeString());
    };
  }

  /** The Calcite type for a Tideway type (nullable). */
  public static RelDataType toRelType(RelDataTypeFactory f, DataType t) {
    RelDataType r =
        switch (t.id()) {
          case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
          case SMALLINT -> f.createSqlType(SqlTypeName.SMALLINT);
          case INT -> f.createSqlType(SqlTypeName.INTEGER);
          case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
          case REAL -> f.createSqlType(SqlTypeName.REAL);
          case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
          case DECIMAL ->
              t.precision() > 0
                  ? f.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale())
                  : f.createSqlType(
                      SqlTypeName.DECIMAL,
                      TwTypeSystem.UNCONSTRAINED_PRECISION,
                      TwTypeSystem.UNCONSTRAINED_SCALE);
          case VARCHAR -> f.createSqlType(SqlTypeName.VARCHAR);
          case BYTEA -> f.createSqlType(SqlTypeName.VARBINARY);
          case DATE -> f.createSqlType(SqlTypeName.DATE);
          case TIME -> f.createSqlType(SqlTypeName.TIME);
          case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, 3);
          case TIMESTAMPTZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3);
          case INTERVAL ->
              f.createSqlIntervalType(
                  new org.apache.calcite.sql.SqlIntervalQualifier(
                      org.apache.calcite.avatica.util.TimeUnit.DAY,
                      org.apache.calcite.avatica.util.TimeUnit.SECOND,
                      org.apache.calcite.sql.parser.SqlParserPos.ZERO));
        };
    return f.createTypeWithNullability(r, true);
  }

  /**
   * Parses a DDL column type name ({@code VARCHAR}, {@code timestamptz}, {@code NUMERIC(10,2)}).
   */
  static DataType parseColumnType(String typeText) {
    String t = typeText.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (t.startsWith("varchar(") || t.startsWith("character varying(") || t.startsWith("char(")) {
      return DataType.VARCHAR;
    }
    if (t.equals("timestamp with local time zone")) {
      return DataType.TIMESTAMPTZ;
    }
    if (t.startsWith("timestamp(") || t.startsWith("time(")) {
      return t.startsWith("time(") ? DataType.TIME : DataType.TIMESTAMP;
    }
    try {
      return DataType.parse(
          t.replace("varbinary", "bytea")
              .replace("char", "varchar")
              .replace("varvarchar", "varchar"));
    } catch (IllegalArgumentException e) {
      throw PgException.error(
          SqlState.UNDEFINED_OBJECT,
          "type \"" + typeText.trim().toLowerCase(Locale.ROOT) + "\" does not exist");
    }
  }
}
