package dev.tideway.common.plan;

/**
 * How an {@code Exchange} routes rows from the actors of one fragment to those of the next. Codes
 * are fixed wire codes, never reused or renumbered.
 */
public enum DispatcherKind {
  /** By the vnode of the distribution key: each row goes to the actor owning its vnode. */
  HASH(1),
  /** Every row to every downstream actor. */
  BROADCAST(2),
  /** Everything to the single downstream actor (a singleton fragment). */
  SIMPLE(3),
  /** Actor i to actor i; both fragments have the same parallelism and vnodes. */
  NO_SHUFFLE(4);

  private final byte code;

  DispatcherKind(int code) {
    this.code = (byte) code;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  /** The constant with this wire code; fails naming the code. */
  public static DispatcherKind fromCode(int code) {
    for (DispatcherKind v : values()) {
      if (v.code == code) {
        return v;
      }
    }
    throw PlanChecks.unknownCode("DispatcherKind", code);
  }
}
