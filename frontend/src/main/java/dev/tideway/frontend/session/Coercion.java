package dev.tideway.frontend.session;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.batch.CalciteValues;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgType;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.Statement;
import dev.tideway.frontend.sql.StatementParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The assignment cast of values of type {@code from} into column {@code c}, chosen once per result
 * column: integral and same-type values take a direct path (a range check at most); the rest go
 * through {@link #coerce}.
 */
@FunctionalInterface
interface Coercion {
  Object apply(Object v);

  static Coercion of(ColumnDesc c, DataType from) {
    TypeId to = c.type().id();
    boolean integralFrom =
        from.id() == TypeId.SMALLINT || from.id() == TypeId.INT || from.id() == TypeId.BIGINT;
    if (integralFrom && to == TypeId.BIGINT) {
      return v -> v == null ? null : ((Number) v).longValue();
    }
    if (integralFrom && (to == TypeId.INT || to == TypeId.SMALLINT)) {
      long min = to == TypeId.INT ? Integer.MIN_VALUE : Short.MIN_VALUE;
      long max = to == TypeId.INT ? Integer.MAX_VALUE : Short.MAX_VALUE;
      return v -> {
        if (v == null) {
          return null;
        }
        long l = ((Number) v).longValue();
        if (l < min || l > max) {
          throw PgException.error(
              SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
              c.type().sqlName().toLowerCase() + " out of range for column \"" + c.name() + "\"");
        }
        return to == TypeId.INT ? (Object) (int) l : (Object) (short) l;
      };
    }
    if (to == TypeId.VARCHAR && from.id() == TypeId.VARCHAR) {
      return v -> v;
    }
    return v -> coerce(c, v, from);
  }

  /** The SQL type of a value as the session holds it (a literal's or a bound parameter's). */
  static DataType typeOf(Object v) {
    if (v instanceof Long) {
      return DataType.BIGINT;
    } else if (v instanceof Integer) {
      return DataType.INT;
    } else if (v instanceof Short) {
      return DataType.SMALLINT;
    } else if (v instanceof BigDecimal) {
      return DataType.DECIMAL;
    } else if (v instanceof Boolean) {
      return DataType.BOOLEAN;
    } else if (v instanceof Double) {
      return DataType.DOUBLE;
    } else if (v instanceof Float) {
      return DataType.REAL;
    } else if (v instanceof java.time.LocalDate) {
      return DataType.DATE;
    } else if (v instanceof java.time.LocalTime) {
      return DataType.TIME;
    } else if (v instanceof java.time.LocalDateTime) {
      return DataType.TIMESTAMP;
    } else if (v instanceof java.time.Instant) {
      return DataType.TIMESTAMPTZ;
    } else if (v instanceof byte[]) {
      return DataType.BYTEA;
    } else if (v instanceof dev.tideway.common.types.Interval) {
      return DataType.INTERVAL;
    }
    return DataType.VARCHAR;
  }

  /** A value of type {@code from} stored into column {@code c} (assignment cast). */
  private static Object coerce(ColumnDesc c, Object v, DataType from) {
    if (v == null) {
      return null;
    }
    DataType t = c.type();
    try {
      if (from.id() == TypeId.VARCHAR && t.id() != TypeId.VARCHAR) {
        try {
          return Datums.fromText(t, (String) v);
        } catch (IllegalArgumentException e) {
          // a string that does not spell a value of the column's type: PostgreSQL's 22P02/22007
          boolean datetime =
              t.id() == TypeId.DATE
                  || t.id() == TypeId.TIME
                  || t.id() == TypeId.TIMESTAMP
                  || t.id() == TypeId.TIMESTAMPTZ
                  || t.id() == TypeId.INTERVAL;
          throw PgException.error(
              datetime ? "22007" : "22P02",
              "invalid input syntax for type " + t.sqlName().toLowerCase() + ": \"" + v + "\"");
        }
      }
      if (t.id() == TypeId.VARCHAR) {
        return from.id() == TypeId.VARCHAR ? v : Datums.toText(from, v);
      }
      if (t.id() == TypeId.DECIMAL) {
        BigDecimal b = v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
        return Datums.decimal(t, b);
      }
      if (t.id() == TypeId.SMALLINT || t.id() == TypeId.INT || t.id() == TypeId.BIGINT) {
        BigDecimal b = new BigDecimal(v.toString()).setScale(0, java.math.RoundingMode.HALF_UP);
        long l = b.longValueExact();
        if ((t.id() == TypeId.INT && (int) l != l)
            || (t.id() == TypeId.SMALLINT && (short) l != l)) {
          throw new ArithmeticException();
        }
        return CalciteValues.coerce(t, l);
      }
      return CalciteValues.coerce(t, v);
    } catch (ArithmeticException | NumberFormatException e) {
      throw PgException.error(
          SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
          t.sqlName().toLowerCase() + " out of range for column \"" + c.name() + "\"");
    } catch (IllegalArgumentException | ClassCastException e) {
      throw PgException.error(
          SqlState.DATATYPE_MISMATCH,
          "column \""
              + c.name()
              + "\" is of type "
              + t.sqlName().toLowerCase()
              + " but expression is of type "
              + from.sqlName().toLowerCase());
    }
  }

  /**
   * The parameter types of a statement: per PostgreSQL parameter number, the type the client gave
   * ({@code paramOids}), else the one Calcite inferred for its first {@code ?}, else VARCHAR.
   */
  static List<DataType> paramTypes(List<Integer> order, List<DataType> calcite, int[] oids) {
    int n = Math.max(oids.length, order.stream().mapToInt(Integer::intValue).max().orElse(0));
    List<DataType> out = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      DataType t = null;
      if (k <= oids.length && oids[k - 1] != 0) {
        PgType pt = PgType.ofOid(oids[k - 1]);
        t = pt == null ? DataType.VARCHAR : pt.dataType();
      }
      for (int i = 0; t == null && i < order.size(); i++) {
        if (order.get(i) == k && i < calcite.size()) {
          t = calcite.get(i);
        }
      }
      out.add(t == null ? DataType.VARCHAR : t);
    }
    return out;
  }

  /** A query described, and the parse it was described from. */
  record Typed(StatementParser.Parsed parsed, BatchEngine.Described described) {}

  /**
   * Describes query {@code q}. A parameter whose place gives it no type ({@code SELECT $1}, which
   * Calcite refuses as an illegal use of a dynamic parameter) takes the type its client declared,
   * else {@code text}, as PostgreSQL resolves an unknown-typed parameter: the query is described
   * again with such parameters cast ({@link StatementParser#castParams}), first only those the
   * client typed, then all.
   */
  static Typed describe(
      BatchEngine engine, StatementParser.Parsed parsed, Statement.Query q, int[] paramOids) {
    try {
      return new Typed(parsed, engine.describe(q.sql()));
    } catch (PgException e) {
      if (!String.valueOf(e.getMessage()).contains("dynamic parameter")) {
        throw e;
      }
      List<String> declared = declaredCalciteTypes(parsed.paramOrder(), paramOids);
      List<String> orText = declared.stream().map(t -> t == null ? "VARCHAR" : t).toList();
      for (List<String> types : List.of(declared, orText)) {
        String sql = StatementParser.castParams(q.sql(), types);
        try {
          return new Typed(
              new StatementParser.Parsed(new Statement.Query(sql), parsed.paramOrder()),
              engine.describe(sql));
        } catch (PgException again) {
          if (!String.valueOf(again.getMessage()).contains("dynamic parameter")) {
            throw again;
          }
        }
      }
      throw e;
    }
  }

  /**
   * Per {@code ?} in order, the Calcite type of the type its client declared ({@code paramOids} by
   * PostgreSQL parameter number), or null where it declared none.
   */
  static List<String> declaredCalciteTypes(List<Integer> order, int[] oids) {
    List<String> out = new ArrayList<>();
    for (int pgParam : order) {
      PgType t =
          pgParam <= oids.length && oids[pgParam - 1] != 0 ? PgType.ofOid(oids[pgParam - 1]) : null;
      out.add(t == null ? null : dev.tideway.frontend.sql.SqlTypes.calciteName(t.dataType()));
    }
    return out;
  }
}
