package dev.tideway.compute.executor;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import dev.tideway.compute.expr.ExprException;
import dev.tideway.compute.expr.Vectors;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The arithmetic of the aggregate functions on one accumulator value, kept apart from the
 * executor's bookkeeping: the accumulator type of each call, adding or retracting one input value,
 * and the result. Integer sums accumulate in {@code long} with overflow checks (or in DECIMAL when
 * the planner typed the sum numeric), float sums in {@code double}, AVG of exact types in DECIMAL.
 *
 * <p>Stateless.
 */
final class AggCalls {
  private static final int AVG_SCALE = 16;

  private AggCalls() {}

  /** The type a call's running sum is stored in (SUM and AVG); null for the others. */
  static DataType accumulatorType(AggCall call, DataType inputType) {
    return switch (call.kind()) {
      case SUM ->
          Vectors.isFloat(call.returnType().id())
              ? DataType.DOUBLE
              : DataType.of(call.returnType().id());
      case AVG -> Vectors.isFloat(inputType.id()) ? DataType.DOUBLE : DataType.DECIMAL;
      default -> null;
    };
  }

  /** {@code acc + sign * value} in {@code accType}; {@code acc} null is zero. */
  static Object add(AggCall call, DataType accType, Object acc, Object value, int sign) {
    switch (accType.id()) {
      case DOUBLE -> {
        double a = acc == null ? 0 : (Double) acc;
        return a + sign * ((Number) value).doubleValue();
      }
      case DECIMAL -> {
        BigDecimal a = acc == null ? BigDecimal.ZERO : (BigDecimal) acc;
        BigDecimal v =
            value instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) value).longValue());
        return sign > 0 ? a.add(v) : a.subtract(v);
      }
      default -> {
        long a = acc == null ? 0 : ((Number) acc).longValue();
        long v = ((Number) value).longValue();
        try {
          return sign > 0 ? Math.addExact(a, v) : Math.subtractExact(a, v);
        } catch (ArithmeticException e) {
          throw new ExprException(
              ExprException.Reason.NUMERIC_OUT_OF_RANGE,
              "bigint out of range: " + call.kind() + " at " + a + (sign > 0 ? " + " : " - ") + v);
        }
      }
    }
  }

  /** The result of SUM or AVG given the running sum and the non-NULL count. */
  static Object result(AggCall call, Object acc, long nonNull) {
    if (nonNull == 0) {
      return null;
    }
    DataType rt = call.returnType();
    if (call.kind() == AggKind.SUM) {
      return convert(acc, rt);
    }
    if (acc instanceof Double d) {
      return convert(d / nonNull, rt);
    }
    BigDecimal sum = (BigDecimal) acc;
    BigDecimal avg =
        sum.divide(
            BigDecimal.valueOf(nonNull), Math.max(AVG_SCALE, sum.scale()), RoundingMode.HALF_UP);
    return convert(avg, rt);
  }

  /** A number as a value of {@code type}. */
  static Object convert(Object v, DataType type) {
    Number n = (Number) v;
    return switch (type.id()) {
      case SMALLINT -> n.shortValue();
      case INT -> n.intValue();
      case BIGINT -> n.longValue();
      case REAL -> n.floatValue();
      case DOUBLE -> n.doubleValue();
      case DECIMAL ->
          Datums.decimal(type, v instanceof BigDecimal d ? d : new BigDecimal(n.toString()));
      default -> throw new IllegalArgumentException("aggregate result type " + type);
    };
  }

  /** True when {@code candidate} should replace {@code current} as MIN (or MAX). */
  static boolean better(AggKind kind, DataType type, Object candidate, Object current) {
    if (current == null) {
      return true;
    }
    int c = Datums.compare(type, candidate, current);
    return kind == AggKind.MIN ? c < 0 : c > 0;
  }

  /** True for kinds whose state is a count. */
  static boolean isCount(AggKind kind) {
    return kind == AggKind.COUNT || kind == AggKind.COUNT_STAR;
  }

  static boolean isExtreme(AggKind kind) {
    return kind == AggKind.MIN || kind == AggKind.MAX;
  }

  static boolean isSumLike(AggKind kind) {
    return kind == AggKind.SUM || kind == AggKind.AVG;
  }

  /** Fails for calls this executor cannot run. */
  static void checkSupported(AggCall call, DataType inputType) {
    if (call.distinct()) {
      throw new IllegalArgumentException(
          "aggregate " + call.kind() + "(DISTINCT) is not supported");
    }
    if (isSumLike(call.kind())) {
      TypeId t = inputType.id();
      if (!Vectors.isNumeric(t)) {
        throw new IllegalArgumentException(
            "function " + call.kind() + "(" + inputType.sqlName() + ") does not exist");
      }
    }
  }
}
