package dev.tideway.compute.expr;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.compute.expr.ExprException.Reason;

/** Builds the messages of {@link ExprException}s: function, values and types, PostgreSQL-worded. */
final class Errors {
  private Errors() {}

  static ExprException outOfRange(DataType type, String function, String operands) {
    return new ExprException(
        Reason.NUMERIC_OUT_OF_RANGE,
        type.sqlName() + " out of range: " + function + "(" + operands + ")");
  }

  static ExprException divisionByZero(String function, String operands) {
    return new ExprException(
        Reason.DIVISION_BY_ZERO, "division by zero: " + function + "(" + operands + ")");
  }

  static ExprException badCast(Object value, DataType from, DataType to, String why) {
    return new ExprException(
        Reason.INVALID_CAST,
        "cannot cast "
            + quote(from, value)
            + " of type "
            + from.sqlName()
            + " to "
            + to.sqlName()
            + (why == null ? "" : ": " + why));
  }

  static ExprException badArgument(String function, String message) {
    return new ExprException(Reason.INVALID_ARGUMENT, function + ": " + message);
  }

  /** {@code value::type} as text, for operand lists in messages. */
  static String typed(DataType type, Object value) {
    return (value == null ? "NULL" : Datums.toText(type, value)) + "::" + type.sqlName();
  }

  static String quote(DataType type, Object value) {
    return value == null ? "NULL" : "'" + Datums.toText(type, value) + "'";
  }
}
