package dev.tideway.barrier.epoch;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;

/**
 * An epoch: the upper 48 bits hold physical milliseconds since 2021-04-01T00:00:00Z (the RisingWave
 * epoch), the lower 16 bits are reserved for spill sub-epochs and are zero here. Comparable as a
 * plain {@code long}. {@link #next(Clock)} is strictly increasing: it waits (on the injected clock,
 * never the system's) until physical time moved past this epoch's.
 *
 * <p>Immutable value. Hot paths use the static {@code long} helpers to stay allocation-free.
 */
public record Epoch(long value) implements Comparable<Epoch> {
  /** 2021-04-01T00:00:00Z in Unix milliseconds. */
  public static final long BASE_UNIX_MS = 1_617_235_200_000L;

  /** Bits below the physical time. */
  public static final int PHYSICAL_SHIFT_BITS = 16;

  /** "No epoch": before the first commit. */
  public static final Epoch INVALID = new Epoch(0);

  public Epoch {
    Checks.checkArgument(value >= 0, "epoch must not be negative, got %s", value);
  }

  /** The epoch of the clock's current time. */
  public static Epoch now(Clock clock) {
    return new Epoch(fromUnixMillis(clock.currentTimeMillis()));
  }

  /** The epoch value for a Unix time in milliseconds; fails before 2021-04-01. */
  public static long fromUnixMillis(long unixMs) {
    long physical = unixMs - BASE_UNIX_MS;
    Checks.checkArgument(
        physical >= 0, "time %s ms is before the epoch base %s", unixMs, BASE_UNIX_MS);
    return physical << PHYSICAL_SHIFT_BITS;
  }

  /** Physical milliseconds since the base of an epoch value. */
  public static long physicalMs(long epoch) {
    return epoch >>> PHYSICAL_SHIFT_BITS;
  }

  /** Unix milliseconds of an epoch value. */
  public static long unixMillis(long epoch) {
    return physicalMs(epoch) + BASE_UNIX_MS;
  }

  /**
   * The next epoch after {@code prev}: the clock's time if it moved past {@code prev}'s physical
   * time, otherwise after sleeping on the clock until it did. Strictly greater than {@code prev}.
   */
  public static long next(long prev, Clock clock) {
    long prevPhysical = physicalMs(prev);
    while (true) {
      long now = clock.currentTimeMillis() - BASE_UNIX_MS;
      if (now > prevPhysical) {
        return now << PHYSICAL_SHIFT_BITS;
      }
      try {
        clock.sleepMillis(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for epoch after " + prev, e);
      }
    }
  }

  /** The next epoch after this one; see {@link #next(long, Clock)}. */
  public Epoch next(Clock clock) {
    return new Epoch(next(value, clock));
  }

  public long physicalMs() {
    return physicalMs(value);
  }

  public long unixMillis() {
    return unixMillis(value);
  }

  @Override
  public int compareTo(Epoch o) {
    return Long.compare(value, o.value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
