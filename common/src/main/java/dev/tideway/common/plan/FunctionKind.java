package dev.tideway.common.plan;

/**
 * The scalar functions an {@link ExprNode.FunctionCall} can apply. Each has a fixed wire code
 * (never reused or renumbered; new functions take new codes) and an arity range checked when a call
 * is built. Codes are grouped by tens: arithmetic 1x, comparison 2x, logic 3x, null tests 4x,
 * conditionals 5x, strings 6x, time 7x.
 */
public enum FunctionKind {
  ADD(10, 2, 2),
  SUBTRACT(11, 2, 2),
  MULTIPLY(12, 2, 2),
  DIVIDE(13, 2, 2),
  MODULUS(14, 2, 2),
  NEGATE(15, 1, 1),
  ABS(16, 1, 1),
  EQUAL(20, 2, 2),
  NOT_EQUAL(21, 2, 2),
  LESS_THAN(22, 2, 2),
  LESS_THAN_OR_EQUAL(23, 2, 2),
  GREATER_THAN(24, 2, 2),
  GREATER_THAN_OR_EQUAL(25, 2, 2),
  AND(30, 2, Integer.MAX_VALUE),
  OR(31, 2, Integer.MAX_VALUE),
  NOT(32, 1, 1),
  IS_NULL(40, 1, 1),
  IS_NOT_NULL(41, 1, 1),
  IS_TRUE(42, 1, 1),
  IS_FALSE(43, 1, 1),
  /** {@code CASE WHEN c1 THEN v1 ... [ELSE e] END}: args are c1, v1, c2, v2, ..., [e]. */
  CASE(50, 2, Integer.MAX_VALUE),
  COALESCE(51, 1, Integer.MAX_VALUE),
  CONCAT(60, 1, Integer.MAX_VALUE),
  LOWER(61, 1, 1),
  UPPER(62, 1, 1),
  LENGTH(63, 1, 1),
  /** {@code tumble_start(ts, size)}: the start of the tumbling window holding {@code ts}. */
  TUMBLE_START(70, 2, 2),
  /** {@code extract(field, ts)}: the first arg is a VARCHAR literal naming the field. */
  EXTRACT(71, 2, 2);

  private static final FunctionKind[] BY_CODE = new FunctionKind[128];

  static {
    for (FunctionKind k : values()) {
      BY_CODE[k.code] = k;
    }
  }

  private final byte code;
  private final int minArgs;
  private final int maxArgs;

  FunctionKind(int code, int minArgs, int maxArgs) {
    this.code = (byte) code;
    this.minArgs = minArgs;
    this.maxArgs = maxArgs;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  public int minArgs() {
    return minArgs;
  }

  public int maxArgs() {
    return maxArgs;
  }

  /** The kind with this wire code; fails naming the code. */
  public static FunctionKind fromCode(int code) {
    FunctionKind k = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    if (k == null) {
      throw PlanChecks.unknownCode("function kind", code);
    }
    return k;
  }
}
