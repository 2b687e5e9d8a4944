package dev.tideway.barrier.message;

/**
 * What a barrier asks of the executors it passes. {@link #INITIAL} is the first barrier after
 * creation or recovery (nothing to sync for {@code prev}); {@link #BARRIER} only seals the epoch
 * into the shared buffer; {@link #CHECKPOINT} makes the node sync its state to SSTs.
 */
public enum BarrierKind {
  INITIAL((byte) 1),
  BARRIER((byte) 2),
  CHECKPOINT((byte) 3);

  private final byte code;

  BarrierKind(byte code) {
    this.code = code;
  }

  /** The wire byte code; never reuse a retired one. */
  public byte code() {
    return code;
  }

  public boolean isCheckpoint() {
    return this == CHECKPOINT;
  }

  public static BarrierKind fromCode(byte code) {
    for (BarrierKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown barrier kind code " + code);
  }
}
