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
  EXTRACT(71, 2, 2),
  /** {@code substring(s, start [, count])}: 1-based, counted in characters. */
  SUBSTRING(64, 2, 3),
  /** {@code s LIKE pattern}: {@code %} any run, {@code _} one character, a backslash escapes. */
  LIKE(65, 2, 2),
  /** {@code date_trunc(field, ts)}: the first arg is a VARCHAR literal naming the field. */
  DATE_TRUNC(72, 2, 2),
  /** {@code round(x [, scale])}: numerics half away from zero, floats half to even (PostgreSQL). */
  ROUND(17, 1, 2),
  FLOOR(18, 1, 1),
  CEIL(19, 1, 1),
  SIGN(80, 1, 1),
  SQRT(81, 1, 1),
  POWER(82, 2, 2),
  EXP(83, 1, 1),
  LN(84, 1, 1),
  LOG10(85, 1, 1),
  /** {@code position(sub IN s)}: 1-based, in characters; 0 when absent. Args: sub, s. */
  POSITION(66, 2, 2),
  /** {@code replace(s, from, to)}: every occurrence; an empty {@code from} changes nothing. */
  REPLACE(67, 3, 3),
  /**
   * {@code trim([BOTH|LEADING|TRAILING] chars FROM s)}: args are a VARCHAR literal naming the side,
   * the set of characters to remove, and s.
   */
  TRIM(68, 3, 3);

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
