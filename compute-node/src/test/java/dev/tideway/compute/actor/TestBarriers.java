package dev.tideway.compute.actor;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import java.util.Set;

/** Barriers for tests: epoch {@code i} is {@code i << 16}; barrier {@code i} closes epoch i-1. */
public final class TestBarriers {
  private TestBarriers() {}

  public static long epoch(int i) {
    return (long) i << Epoch.PHYSICAL_SHIFT_BITS;
  }

  /**
   * Barrier {@code i >= 1}: {@code {curr = epoch(i), prev = epoch(i - 1)}}; the first is INITIAL.
   */
  public static Barrier barrier(int i) {
    return Barrier.of(
        new EpochPair(epoch(i), epoch(i - 1)),
        i == 1 ? BarrierKind.INITIAL : BarrierKind.CHECKPOINT);
  }

  /** Barrier {@code i} of a run whose epochs start after {@code epoch(base)}: i == 1 is INITIAL. */
  public static Barrier barrier(int base, int i) {
    return Barrier.of(
        new EpochPair(epoch(base + i), epoch(base + i - 1)),
        i == 1 ? BarrierKind.INITIAL : BarrierKind.CHECKPOINT);
  }

  /** Barrier {@code i} of a run after {@code epoch(base)}, stopping {@code actors}. */
  public static Barrier stopAfter(int base, int i, Integer... actors) {
    return stop(base + i, actors);
  }

  /** Barrier {@code i} carrying a Stop of {@code actors}. */
  public static Barrier stop(int i, Integer... actors) {
    return new Barrier(
        new EpochPair(epoch(i), epoch(i - 1)),
        BarrierKind.CHECKPOINT,
        new Mutation.Stop(Set.of(actors)));
  }
}
