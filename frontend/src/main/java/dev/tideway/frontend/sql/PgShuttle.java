package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.sql.parser.PgIntervalLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL and RisingWave constructs in a parsed query, turned into what Calcite validates and
 * plans (bottom-up, structurally):
 *
 * <ul>
 *   <li>{@code x::type} and {@code CAST(x AS type)} with a PostgreSQL type name ({@code int8},
 *       {@code text}, {@code timestamptz}, ...) → {@code CAST} to Calcite's type; {@code
 *       ::regclass}/{@code ::regtype} → the catalog lookup functions;
 *   <li>{@code a ~ b}, {@code ~*}, {@code !~}, {@code !~*} → {@code [NOT] pg_regex_match(a, b,
 *       flags)} (PostgreSQL's find semantics);
 *   <li>{@code INTERVAL '1 hour'} → Calcite's {@code INTERVAL '1' HOUR(10)} ({@link PgIntervals});
 *   <li>{@code FROM TUMBLE(t, col, size)} / {@code HOP(t, col, slide, size)} (RisingWave) → {@code
 *       TUMBLE(TABLE t, DESCRIPTOR(col), ...)};
 *   <li>{@code FROM generate_series(...) AS g} → {@code AS g(g)} (PostgreSQL names the column after
 *       the alias).
 * </ul>
 *
 * <p>One instance per tree, on the parsing thread; the type cache is shared and thread-safe.
 */
final class PgShuttle extends SqlShuttle {
  private static final Map<String, SqlDataTypeSpec> TYPES = new ConcurrentHashMap<>();

  @Override
  public SqlNode visit(SqlIdentifier id) {
    if (id.isSimple()
        && (id.getSimple().equalsIgnoreCase("current_user")
            || id.getSimple().equalsIgnoreCase("session_user"))) {
      return function("pg_session_user", id.getParserPosition()); // the connected user
    }
    return id;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    SqlNode v = super.visit(call);
    if (!(v instanceof SqlCall c)) {
      return v;
    }
    SqlParserPos p = c.getParserPosition();
    if (c instanceof org.apache.calcite.sql.SqlSelect select && select.getGroup() != null) {
      constantGroupKeys(select);
    }
    if (PgIntervalLiteral.is(c)) {
      return interval(PgIntervalLiteral.text(c));
    }
    if (c.getOperator() instanceof org.apache.calcite.sql.SqlFunction) {
      SqlNode f = pgFunction(c, p);
      if (f != null) {
        return f;
      }
    }
    if ((c.getOperator() == SqlLibraryOperators.INFIX_CAST || c.getKind() == SqlKind.CAST)
        && c.operand(1) instanceof SqlDataTypeSpec spec) {
      return cast(c.operand(0), spec, p);
    }
    return switch (c.getKind()) {
      case POSIX_REGEX_CASE_SENSITIVE ->
          regex(c, 0, c.getOperator() == SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_SENSITIVE);
      case POSIX_REGEX_CASE_INSENSITIVE ->
          regex(c, 1, c.getOperator() == SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_INSENSITIVE);
      case COLLECTION_TABLE -> window(c);
      case AS -> generateSeriesAlias(c);
      default -> c;
    };
  }

  /**
   * {@code GROUP BY a, -0.001}: PostgreSQL reads only a positive integer constant as an ordinal;
   * any other number is a constant to group by, which Calcite would take for an ordinal ("Ordinal
   * out of range"). Such a key is written as a cast of itself, which no validator reads as an
   * ordinal.
   */
  private static void constantGroupKeys(org.apache.calcite.sql.SqlSelect select) {
    org.apache.calcite.sql.SqlNodeList group = select.getGroup();
    for (int i = 0; i < group.size(); i++) {
      if (group.get(i) instanceof org.apache.calcite.sql.SqlNumericLiteral n
          && !(n.isInteger() && n.bigDecimalValue().signum() > 0)) {
        java.math.BigDecimal v = n.bigDecimalValue();
        SqlParserPos p = n.getParserPosition();
        SqlDataTypeSpec type =
            new SqlDataTypeSpec(
                new SqlBasicTypeNameSpec(
                    org.apache.calcite.sql.type.SqlTypeName.DECIMAL,
                    Math.max(v.precision(), v.scale()),
                    Math.max(v.scale(), 0),
                    p),
                p);
        group.set(i, SqlStdOperatorTable.CAST.createCall(p, n, type));
      }
    }
  }

  /**
   * {@code '1.25'::numeric} as the number itself: PostgreSQL's numeric without a precision keeps
   * every digit, where a cast to Calcite's DECIMAL would round to its default scale of 0 (drivers
   * in simple query mode send NUMERIC parameters so); null when {@code operand} is not a string
   * spelling a number or the type is not a bare numeric.
   */
  private static SqlNode unconstrainedNumeric(
      SqlNode operand, SqlDataTypeSpec spec, SqlParserPos p) {
    if (!(operand instanceof SqlLiteral lit)
        || !(lit.getValue() instanceof org.apache.calcite.util.NlsString
            || lit instanceof SqlNumericLiteral n && n.isExact())) {
      return null;
    }
    String text =
        lit.getValue() instanceof org.apache.calcite.util.NlsString s
            ? s.getValue()
            : ((java.math.BigDecimal) lit.getValue()).toPlainString();
    String type =
        spec.getTypeNameSpec()
            .getTypeName()
            .names
            .get(spec.getTypeNameSpec().getTypeName().names.size() - 1)
            .toLowerCase(Locale.ROOT);
    boolean bare =
        spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec b
            ? b.getPrecision() < 0 && (type.equals("decimal") || type.equals("numeric"))
            : type.equals("numeric") || type.equals("decimal");
    if (!bare) {
      return null;
    }
    try {
      java.math.BigDecimal v = new java.math.BigDecimal(text.strip());
      if (v.scale() <= 0) {
        return null; // Calcite would type it INTEGER: the cast keeps it a numeric
      }
      if (v.signum() < 0) {
        return SqlStdOperatorTable.UNARY_MINUS.createCall(
            p, SqlLiteral.createExactNumeric(v.negate().toPlainString(), p));
      }
      return SqlLiteral.createExactNumeric(v.toPlainString(), p);
    } catch (NumberFormatException e) {
      return null; // not a number: the cast reports it
    }
  }

  /**
   * PostgreSQL functions with a Calcite twin: {@code now()} → {@code CURRENT_TIMESTAMP}, {@code
   * length(s)} → {@code CHAR_LENGTH(s)}, {@code date_trunc('hour', ts)} → {@code FLOOR(ts TO
   * HOUR)}; null for any other call.
   */
  private static SqlNode pgFunction(SqlCall c, SqlParserPos p) {
    String name = c.getOperator().getName().toLowerCase(Locale.ROOT);
    switch (name) {
      case "now", "transaction_timestamp", "statement_timestamp" -> {
        return c.operandCount() == 0 ? SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(p) : null;
      }
      case "substr" -> {
        return c.operandCount() == 2 || c.operandCount() == 3
            ? SqlStdOperatorTable.SUBSTRING.createCall(p, c.getOperandList())
            : null;
      }
      case "length", "char_length", "character_length" -> {
        return c.operandCount() == 1
            ? SqlStdOperatorTable.CHAR_LENGTH.createCall(p, (SqlNode) c.operand(0))
            : null;
      }
      case "date_trunc" -> {
        if (c.operandCount() != 2
            || !(c.operand(0) instanceof SqlLiteral unit)
            || !(unit.getValue() instanceof org.apache.calcite.util.NlsString u)) {
          return null;
        }
        String field = u.getValue().strip().toUpperCase(Locale.ROOT);
        if (!List.of(
                "MICROSECONDS",
                "MILLISECONDS",
                "SECOND",
                "MINUTE",
                "HOUR",
                "DAY",
                "WEEK",
                "MONTH",
                "QUARTER",
                "YEAR",
                "DECADE",
                "CENTURY",
                "MILLENNIUM")
            .contains(field)) {
          throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "unit \"" + u.getValue() + "\" not recognized for type timestamp");
        }
        field =
            switch (field) {
              case "MICROSECONDS" -> "MICROSECOND";
              case "MILLISECONDS" -> "MILLISECOND";
              default -> field;
            };
        try {
          SqlCall floor =
              (SqlCall)
                  SqlParser.create("FLOOR(x TO " + field + ")", PgParser.PLAIN).parseExpression();
          floor.setOperand(0, c.operand(1));
          return floor;
        } catch (SqlParseException e) {
          throw new IllegalStateException("FLOOR TO " + field + " does not parse", e);
        }
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * A string cast to a timestamp, in the form Calcite reads: PostgreSQL takes a zone after the time
   * ({@code '2024-01-02 03:04:05+02'}), Calcite only {@code yyyy-MM-dd HH:mm:ss}; the zone is
   * applied (timestamptz, in the session's UTC) or dropped (timestamp), as PostgreSQL does.
   */
  private static SqlNode timestampText(SqlNode operand, SqlDataTypeSpec target, SqlParserPos p) {
    if (!(operand instanceof SqlLiteral lit)
        || !(lit.getValue() instanceof org.apache.calcite.util.NlsString text)) {
      return operand;
    }
    String name = target.getTypeNameSpec().getTypeName().getSimple().toUpperCase(Locale.ROOT);
    boolean tz = name.equals("TIMESTAMP_WITH_LOCAL_TIME_ZONE");
    if (!tz && !name.equals("TIMESTAMP")) {
      return operand;
    }
    try {
      java.time.LocalDateTime t =
          tz
              ? java.time.LocalDateTime.ofInstant(
                  (java.time.Instant)
                      dev.tideway.common.types.Datums.fromText(
                          dev.tideway.common.types.DataType.TIMESTAMPTZ, text.getValue()),
                  java.time.ZoneOffset.UTC)
              : (java.time.LocalDateTime)
                  dev.tideway.common.types.Datums.fromText(
                      dev.tideway.common.types.DataType.TIMESTAMP, text.getValue());
      String out = t.toLocalDate() + " " + t.toLocalTime();
      if (t.getSecond() == 0 && t.getNano() == 0) {
        out += ":00"; // LocalTime prints 03:04 for 03:04:00
      }
      SqlNode literal = SqlLiteral.createCharString(out, p);
      // Calcite reads no string as a TIMESTAMP WITH LOCAL TIME ZONE: go through TIMESTAMP (UTC)
      return tz
          ? SqlStdOperatorTable.CAST.createCall(p, literal, calciteType("TIMESTAMP"))
          : literal;
    } catch (IllegalArgumentException | ClassCastException e) {
      return operand; // not a timestamp PostgreSQL reads either: the cast reports it
    }
  }

  private static SqlNode interval(String text) {
    String calcite = PgIntervals.toCalcite(text);
    try {
      return SqlParser.create(calcite, PgParser.PLAIN).parseExpression();
    } catch (SqlParseException e) {
      throw PgException.error("22007", "invalid input syntax for type interval: \"" + text + "\"");
    }
  }

  private static SqlNode cast(SqlNode operand, SqlDataTypeSpec spec, SqlParserPos p) {
    if (operand instanceof SqlLiteral b
        && b.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN
        && b.getValue() != null
        && SqlTypes.isIntegerTypeName(spec.getTypeNameSpec().getTypeName().getSimple())) {
      // TRUE::int is 1 in PostgreSQL; Calcite has no cast from BOOLEAN to a number
      return SqlLiteral.createExactNumeric(b.booleanValue() ? "1" : "0", p);
    }
    if (operand instanceof org.apache.calcite.sql.SqlNumericLiteral n
        && n.isExact()
        && SqlTypes.calciteTypeName(spec.getTypeNameSpec().getTypeName().getSimple())
            .equals("BOOLEAN")) {
      // 1::boolean is true in PostgreSQL (Calcite folded it to false)
      return SqlLiteral.createBoolean(n.bigDecimalValue().signum() != 0, p);
    }
    SqlNode rounded = IntegerCasts.fold(operand, spec, p);
    if (rounded != null) {
      return rounded;
    }
    SqlNode exact = unconstrainedNumeric(operand, spec, p);
    if (exact != null) {
      return exact;
    }
    if (spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec) {
      return SqlStdOperatorTable.CAST.createCall(p, timestampText(operand, spec, p), spec);
    }
    SqlIdentifier name = spec.getTypeNameSpec().getTypeName();
    String type = name.names.get(name.names.size() - 1).toLowerCase(Locale.ROOT);
    return switch (type) {
      case "regclass" ->
          function(
              operand instanceof SqlLiteral ? "pg_regclass_oid" : "pg_regclass_name", p, operand);
      case "regtype" -> function("pg_regtype_name", p, operand);
      case "regproc", "regnamespace" ->
          SqlStdOperatorTable.CAST.createCall(p, operand, calciteType("VARCHAR"));
      default -> {
        SqlDataTypeSpec target = pgType(type);
        yield SqlStdOperatorTable.CAST.createCall(p, timestampText(operand, target, p), target);
      }
    };
  }

  /** A PostgreSQL type name as Calcite's type; 42704 when neither knows it. */
  private static SqlDataTypeSpec pgType(String pg) {
    SqlDataTypeSpec spec = calciteType(SqlTypes.calciteTypeName(pg));
    if (spec == null || !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec)) {
      throw PgException.error(SqlState.UNDEFINED_OBJECT, "type \"" + pg + "\" does not exist");
    }
    return spec;
  }

  /**
   * Calcite's type spec for its type text ({@code BIGINT}, {@code DECIMAL(10, 2)}); null if none.
   */
  private static SqlDataTypeSpec calciteType(String calcite) {
    SqlDataTypeSpec cached = TYPES.get(calcite);
    if (cached != null) {
      return cached;
    }
    try {
      SqlCall c =
          (SqlCall)
              SqlParser.create("CAST(NULL AS " + calcite + ")", PgParser.PLAIN).parseExpression();
      SqlDataTypeSpec spec = (SqlDataTypeSpec) c.operand(1);
      TYPES.put(calcite, spec);
      return spec;
    } catch (SqlParseException | RuntimeException e) {
      return null;
    }
  }

  private static SqlNode regex(SqlCall c, int flags, boolean negated) {
    SqlParserPos p = c.getParserPosition();
    SqlNode match =
        function(
            "pg_regex_match",
            p,
            c.operand(0),
            c.operand(1),
            SqlLiteral.createExactNumeric(Integer.toString(flags), p));
    return negated ? SqlStdOperatorTable.NOT.createCall(p, match) : match;
  }

  private static SqlNode function(String name, SqlParserPos p, SqlNode... args) {
    SqlOperator f =
        new SqlUnresolvedFunction(
            new SqlIdentifier(name, p),
            null,
            null,
            null,
            null,
            SqlFunctionCategory.USER_DEFINED_FUNCTION);
    return f.createCall(p, args);
  }

  /** {@code TABLE(TUMBLE(t, col, ...))} → {@code TABLE(TUMBLE(TABLE t, DESCRIPTOR(col), ...))}. */
  private static SqlNode window(SqlCall c) {
    if (!(c.operand(0) instanceof SqlCall f) || f.operandCount() < 3) {
      return c;
    }
    String fn = f.getOperator().getName().toUpperCase(Locale.ROOT);
    if ((fn.equals("TUMBLE") || fn.equals("HOP")) && f.operand(0) instanceof SqlIdentifier t) {
      SqlParserPos p = c.getParserPosition();
      List<SqlNode> args = new ArrayList<>(f.getOperandList());
      args.set(0, SqlStdOperatorTable.EXPLICIT_TABLE.createCall(p, t));
      args.set(1, SqlStdOperatorTable.DESCRIPTOR.createCall(p, args.get(1)));
      SqlOperator op = fn.equals("TUMBLE") ? SqlStdOperatorTable.TUMBLE : SqlStdOperatorTable.HOP;
      return SqlStdOperatorTable.COLLECTION_TABLE.createCall(p, op.createCall(p, args));
    }
    return c;
  }

  private static SqlNode generateSeriesAlias(SqlCall c) {
    if (c.operandCount() == 2
        && c.operand(0) instanceof SqlCall t
        && t.getKind() == SqlKind.COLLECTION_TABLE
        && t.operand(0) instanceof SqlCall f
        && f.getOperator().getName().equalsIgnoreCase("generate_series")) {
      return SqlStdOperatorTable.AS.createCall(
          c.getParserPosition(), c.operand(0), c.operand(1), c.operand(1));
    }
    return c;
  }
}
