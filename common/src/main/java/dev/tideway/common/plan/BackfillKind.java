package dev.tideway.common.plan;

/**
 * How a {@code StreamScan} catches up with the existing rows of its upstream table before it
 * follows the upstream's changes. Codes are fixed wire codes, never reused or renumbered.
 */
public enum BackfillKind {
  /**
   * Reads the upstream table's snapshot locally, co-located with the upstream actors
   * (vnode-aligned), interleaved with the live changes.
   */
  NO_SHUFFLE(1),
  /** Like NO_SHUFFLE but reads the upstream's arrangement remotely, so parallelism may differ. */
  ARRANGEMENT(2),
  /**
   * Reads a fixed snapshot epoch first, then consumes the upstream's change log from that epoch.
   */
  SNAPSHOT(3);

  private final byte code;

  BackfillKind(int code) {
    this.code = (byte) code;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  /** The constant with this wire code; fails naming the code. */
  public static BackfillKind fromCode(int code) {
    for (BackfillKind v : values()) {
      if (v.code == code) {
        return v;
      }
    }
    throw PlanChecks.unknownCode("BackfillKind", code);
  }
}
