package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;

/**
 * The denominator a source backfill actor reports in the {@code a} slot of its progress: the sum
 * over its partitions of (end offset when the backfill began − start offset), and whether offsets
 * count rows exactly. Packed as {@code total << 1 | inexact}, so the report stays the three longs
 * every backfill sends. Table backfill actors never use it.
 */
public final class SourceTotal {
  private SourceTotal() {}

  /** Packs {@code total} (≥ 0) and its exactness. */
  public static long pack(long total, boolean exact) {
    Checks.checkArgument(
        total >= 0 && total < Long.MAX_VALUE >> 1, "source offset total %s out of range", total);
    return total << 1 | (exact ? 0 : 1);
  }

  /** The offset total of a packed value. */
  public static long total(long packed) {
    return packed >>> 1;
  }

  /** Whether a packed value's offsets count rows exactly. */
  public static boolean exact(long packed) {
    return (packed & 1) == 0;
  }
}
