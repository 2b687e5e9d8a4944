package dev.tideway.frontend.plan;

import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.sql.SqlTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Calcite expressions to plan {@link ExprNode}s over an operator's physical input. Calcite field
 * {@code i} is physical column {@code fieldMap[i]}; input refs take their type from the physical
 * schema, so every expression checks against its input. Unsupported functions fail with {@code
 * 0A000} naming them.
 */
final class ExprConverter {
  private final int[] fieldMap;
  private final Schema input;
  private final RexBuilder rexBuilder;

  ExprConverter(int[] fieldMap, Schema input, RexBuilder rexBuilder) {
    this.fieldMap = fieldMap;
    this.input = input;
    this.rexBuilder = rexBuilder;
  }

  ExprNode convert(RexNode rex) {
    if (rex instanceof RexInputRef r) {
      int p = fieldMap[r.getIndex()];
      return new ExprNode.InputRef(p, input.type(p));
    }
    if (rex instanceof RexLiteral l) {
      return literal(l);
    }
    if (rex instanceof RexCall c) {
      return call(c);
    }
    throw PgException.unsupported("expression " + rex + " in a materialized view");
  }

  static ExprNode.Literal literal(RexLiteral l) {
    if (l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.SYMBOL) {
      throw PgException.unsupported("the keyword " + l.getValue() + " in a materialized view");
    }
    DataType t = SqlTypes.toDataType(l.getType());
    if (l.isNull()) {
      return ExprNode.Literal.nullOf(t);
    }
    Object v =
        switch (t.id()) {
          case BOOLEAN -> l.getValueAs(Boolean.class);
          case SMALLINT -> l.getValueAs(Short.class);
          case INT -> l.getValueAs(Integer.class);
          case BIGINT -> l.getValueAs(Long.class);
          case REAL -> l.getValueAs(Float.class);
          case DOUBLE -> l.getValueAs(Double.class);
          case DECIMAL -> l.getValueAs(BigDecimal.class);
          case VARCHAR -> l.getValueAs(String.class);
          case DATE -> LocalDate.ofEpochDay(l.getValueAs(DateString.class).getDaysSinceEpoch());
          case TIME ->
              LocalTime.ofNanoOfDay(l.getValueAs(TimeString.class).getMillisOfDay() * 1_000_000L);
          case TIMESTAMP ->
              LocalDateTime.ofEpochSecond(0, 0, java.time.ZoneOffset.UTC)
                  .plusNanos(
                      l.getValueAs(TimestampString.class).getMillisSinceEpoch() * 1_000_000L);
          case INTERVAL -> intervalOf(l);
          default -> throw PgException.unsupported("literal " + l + " in a materialized view");
        };
    return new ExprNode.Literal(v, t);
  }

  /**
   * An interval literal (Calcite keeps day-time intervals in milliseconds, year-month in months).
   */
  static Interval intervalOf(RexLiteral l) {
    BigDecimal v = l.getValueAs(BigDecimal.class);
    if (l.getType().getSqlTypeName().getName().contains("MONTH")
        || l.getType().getSqlTypeName().getName().contains("YEAR")) {
      return new Interval(v.intValueExact(), 0, 0);
    }
    return Interval.ofMicros(v.longValueExact() * 1000);
  }

  private ExprNode call(RexCall c) {
    DataType ret = SqlTypes.toDataType(c.getType());
    List<ExprNode> args = new ArrayList<>();
    switch (c.getKind()) {
      case SEARCH -> {
        return convert(RexUtil.expandSearch(rexBuilder, null, c));
      }
      case CAST -> {
        return new ExprNode.Cast(convert(c.getOperands().get(0)), ret);
      }
      case EXTRACT -> {
        String field =
            ((RexLiteral) c.getOperands().get(0)).getValue().toString().toLowerCase(Locale.ROOT);
        return new ExprNode.FunctionCall(
            FunctionKind.EXTRACT,
            List.of(new ExprNode.Literal(field, DataType.VARCHAR), convert(c.getOperands().get(1))),
            ret);
      }
      case FLOOR, CEIL -> {
        if (c.getOperands().size() == 2) {
          // date_trunc('month', ts) arrives as FLOOR(ts TO MONTH)
          if (c.getKind() == SqlKind.CEIL || !(c.getOperands().get(1) instanceof RexLiteral unit)) {
            throw PgException.unsupported(
                c.getOperator().getName().toLowerCase(Locale.ROOT)
                    + " to a time unit in a materialized view");
          }
          String field = unit.getValue().toString().toLowerCase(Locale.ROOT);
          return new ExprNode.FunctionCall(
              FunctionKind.DATE_TRUNC,
              List.of(
                  new ExprNode.Literal(field, DataType.VARCHAR), convert(c.getOperands().get(0))),
              ret);
        }
      }
      case IS_NOT_TRUE, IS_NOT_FALSE -> {
        // a IS DISTINCT FROM b arrives as IS NOT TRUE(a = b)
        FunctionKind test =
            c.getKind() == SqlKind.IS_NOT_TRUE ? FunctionKind.IS_TRUE : FunctionKind.IS_FALSE;
        return new ExprNode.FunctionCall(
            FunctionKind.NOT,
            List.of(
                new ExprNode.FunctionCall(
                    test, List.of(convert(c.getOperands().get(0))), DataType.BOOLEAN)),
            ret);
      }
      case LIKE -> {
        boolean defaultEscape =
            c.getOperands().size() == 2
                || (c.getOperands().get(2) instanceof RexLiteral e
                    && "\\".equals(e.getValueAs(String.class)));
        if (!c.getOperator().getName().equalsIgnoreCase("LIKE") || !defaultEscape) {
          throw PgException.unsupported(
              c.getOperator().getName().toLowerCase(Locale.ROOT)
                  + (defaultEscape ? "" : " with an ESCAPE other than backslash")
                  + " in a materialized view");
        }
        return new ExprNode.FunctionCall(
            FunctionKind.LIKE,
            List.of(convert(c.getOperands().get(0)), convert(c.getOperands().get(1))),
            ret);
      }
      case TRIM -> {
        // TRIM(flag, chars, s): the flag symbol becomes a VARCHAR literal naming the side
        String side =
            ((RexLiteral) c.getOperands().get(0)).getValue().toString().toLowerCase(Locale.ROOT);
        return new ExprNode.FunctionCall(
            FunctionKind.TRIM,
            List.of(
                new ExprNode.Literal(side, DataType.VARCHAR),
                convert(c.getOperands().get(1)),
                convert(c.getOperands().get(2))),
            ret);
      }
      default -> {}
    }
    FunctionKind kind = kind(c);
    for (RexNode o : c.getOperands()) {
      args.add(convert(o));
    }
    if ((kind == FunctionKind.AND || kind == FunctionKind.OR) && args.size() < 2) {
      return args.get(0);
    }
    return new ExprNode.FunctionCall(kind, args, ret);
  }

  private static FunctionKind kind(RexCall c) {
    return switch (c.getKind()) {
      case PLUS -> FunctionKind.ADD;
      case MINUS -> FunctionKind.SUBTRACT;
      case TIMES -> FunctionKind.MULTIPLY;
      case DIVIDE -> FunctionKind.DIVIDE;
      case MOD -> FunctionKind.MODULUS;
      case MINUS_PREFIX -> FunctionKind.NEGATE;
      case EQUALS -> FunctionKind.EQUAL;
      case NOT_EQUALS -> FunctionKind.NOT_EQUAL;
      case LESS_THAN -> FunctionKind.LESS_THAN;
      case LESS_THAN_OR_EQUAL -> FunctionKind.LESS_THAN_OR_EQUAL;
      case GREATER_THAN -> FunctionKind.GREATER_THAN;
      case GREATER_THAN_OR_EQUAL -> FunctionKind.GREATER_THAN_OR_EQUAL;
      case AND -> FunctionKind.AND;
      case OR -> FunctionKind.OR;
      case NOT -> FunctionKind.NOT;
      case IS_NULL -> FunctionKind.IS_NULL;
      case IS_NOT_NULL -> FunctionKind.IS_NOT_NULL;
      case IS_TRUE -> FunctionKind.IS_TRUE;
      case IS_FALSE -> FunctionKind.IS_FALSE;
      case CASE -> FunctionKind.CASE;
      case COALESCE -> FunctionKind.COALESCE;
      case EXTRACT -> FunctionKind.EXTRACT;
      case FLOOR -> FunctionKind.FLOOR;
      case CEIL -> FunctionKind.CEIL;
      case POSITION -> FunctionKind.POSITION;
      default -> byName(c);
    };
  }

  private static FunctionKind byName(RexCall c) {
    String n = c.getOperator().getName().toUpperCase(Locale.ROOT);
    return switch (n) {
      case "||", "CONCAT" -> FunctionKind.CONCAT;
      case "LOWER" -> FunctionKind.LOWER;
      case "UPPER" -> FunctionKind.UPPER;
      case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" -> FunctionKind.LENGTH;
      case "ABS" -> FunctionKind.ABS;
      case "MOD" -> FunctionKind.MODULUS;
      case "ROUND" -> FunctionKind.ROUND;
      case "SIGN" -> FunctionKind.SIGN;
      case "SQRT" -> FunctionKind.SQRT;
      case "POWER" -> FunctionKind.POWER;
      case "EXP" -> FunctionKind.EXP;
      case "LN" -> FunctionKind.LN;
      case "LOG10" -> FunctionKind.LOG10;
      case "REPLACE" -> FunctionKind.REPLACE;
      case "SUBSTRING" -> FunctionKind.SUBSTRING;
      default ->
          throw PgException.unsupported(
              "function "
                  + c.getOperator().getName().toLowerCase(Locale.ROOT)
                  + " in a materialized view");
    };
  }
}
