package dev.tideway.barrier.align;

import dev.tideway.barrier.message.Barrier;

/**
 * The state of a {@link BarrierAligner}: one class per situation, each transition returns the next.
 */
sealed interface AlignmentState permits WaitingForFirstBarrier, CollectingBarriers {
  /** A barrier arrived on {@code input}; returns the next state. */
  AlignmentState onBarrier(AlignerContext ctx, int input, Barrier barrier);

  /** True when {@code input} already delivered the pending barrier and must not be polled. */
  boolean isBlocked(int input);
}
