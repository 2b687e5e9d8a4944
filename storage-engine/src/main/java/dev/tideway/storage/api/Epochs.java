package dev.tideway.storage.api;

/**
 * Epochs as the storage engine sees them: plain {@code long}s, physical milliseconds since
 * 2021-04-01T00:00Z shifted left 16 bits. The low 16 bits number sub-epochs: when a memtable spills
 * in the middle of an epoch, later writes of the same epoch carry the next sub-epoch, so a key
 * never has two different values at one (key, epoch). A read "at epoch E" sees every entry whose
 * epoch is at most {@link #visibleUpTo(long) E | 0xFFFF}.
 */
public final class Epochs {
  /** 2021-04-01T00:00:00Z in Unix milliseconds. */
  public static final long BASE_UNIX_MS = 1_617_235_200_000L;

  public static final int SUB_EPOCH_BITS = 16;
  public static final long SUB_EPOCH_MASK = (1L << SUB_EPOCH_BITS) - 1;

  /** No epoch yet (before the first commit). */
  public static final long NONE = 0L;

  private Epochs() {}

  /** The epoch of physical time {@code unixMillis}. */
  public static long fromUnixMillis(long unixMillis) {
    return (unixMillis - BASE_UNIX_MS) << SUB_EPOCH_BITS;
  }

  /** An epoch for tests: physical millisecond {@code n} after the base. */
  public static long of(long n) {
    return n << SUB_EPOCH_BITS;
  }

  public static long physicalMillis(long epoch) {
    return epoch >>> SUB_EPOCH_BITS;
  }

  /** The largest entry epoch a read at {@code epoch} sees. */
  public static long visibleUpTo(long epoch) {
    return epoch | SUB_EPOCH_MASK;
  }

  /** The epoch without its sub-epoch bits. */
  public static long base(long epoch) {
    return epoch & ~SUB_EPOCH_MASK;
  }

  public static String format(long epoch) {
    long sub = epoch & SUB_EPOCH_MASK;
    return physicalMillis(epoch) + (sub == 0 ? "" : "." + sub);
  }
}
