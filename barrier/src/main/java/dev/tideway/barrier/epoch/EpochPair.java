package dev.tideway.barrier.epoch;

import dev.tideway.common.check.Checks;

/**
 * The {@code (curr, prev)} pair a barrier carries. A barrier closes {@code prev}: executors seal
 * the writes of {@code prev} on it and write under {@code curr} after it. {@code prev} is {@code 0}
 * only on the very first barrier of a new cluster.
 */
public record EpochPair(long curr, long prev) {
  public EpochPair {
    Checks.checkArgument(prev >= 0, "prev epoch must not be negative, got %s", prev);
    Checks.checkArgument(
        curr > prev, "epoch pair needs curr > prev, got curr=%s prev=%s", curr, prev);
  }

  /** The pair following this one: {@code (next, curr)}. */
  public EpochPair advance(long next) {
    return new EpochPair(next, curr);
  }

  @Override
  public String toString() {
    return "{curr=" + curr + ", prev=" + prev + "}";
  }
}
