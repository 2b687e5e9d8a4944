package dev.tideway.protocol.catalog;

/** How a fragment's work is split across actors. Fixed codes: never reuse or renumber one. */
public enum FragmentDistribution {
  /** One actor owning every vnode (fed by a SIMPLE exchange, or a global aggregate). */
  SINGLETON(1),
  /** Many actors, each owning a disjoint vnode range; all actors' ranges cover all vnodes. */
  HASH(2);

  private final byte code;

  FragmentDistribution(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  public static FragmentDistribution fromCode(int code) {
    for (FragmentDistribution d : values()) {
      if (d.code == code) {
        return d;
      }
    }
    throw new IllegalArgumentException("unknown fragment distribution code " + code);
  }
}
