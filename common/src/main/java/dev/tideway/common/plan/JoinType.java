package dev.tideway.common.plan;

/**
 * The join types of the first milestone. Codes are fixed wire codes, never reused or renumbered.
 */
public enum JoinType {
  /** Rows matching on the equi-join keys (and the optional non-equi condition). */
  INNER(1);

  private final byte code;

  JoinType(int code) {
    this.code = (byte) code;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  /** The constant with this wire code; fails naming the code. */
  public static JoinType fromCode(int code) {
    for (JoinType v : values()) {
      if (v.code == code) {
        return v;
      }
    }
    throw PlanChecks.unknownCode("JoinType", code);
  }
}
