package dev.tideway.common.plan;

/**
 * The aggregate functions of the first milestone. {@code COUNT(DISTINCT x)} is {@link #COUNT} with
 * {@link AggCall#distinct()} set. Codes are fixed wire codes, never reused or renumbered.
 */
public enum AggKind {
  /** {@code count(x)}: non-null values. */
  COUNT(1, 1),
  /** {@code count(*)}: rows. */
  COUNT_STAR(2, 0),
  SUM(3, 1),
  MIN(4, 1),
  MAX(5, 1),
  AVG(6, 1);

  private static final AggKind[] BY_CODE = {null, COUNT, COUNT_STAR, SUM, MIN, MAX, AVG};

  private final byte code;
  private final int argCount;

  AggKind(int code, int argCount) {
    this.code = (byte) code;
    this.argCount = argCount;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  /** How many arguments a call takes. */
  public int argCount() {
    return argCount;
  }

  /** True for MIN/MAX: on a retractable input they need their inputs kept as state. */
  public boolean needsInputState() {
    return this == MIN || this == MAX;
  }

  /** The kind with this wire code; fails naming the code. */
  public static AggKind fromCode(int code) {
    if (code <= 0 || code >= BY_CODE.length) {
      throw PlanChecks.unknownCode("aggregate kind", code);
    }
    return BY_CODE[code];
  }
}
