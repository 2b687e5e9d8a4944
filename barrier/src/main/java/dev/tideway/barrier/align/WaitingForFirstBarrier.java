package dev.tideway.barrier.align;

import dev.tideway.barrier.message.Barrier;
import java.util.BitSet;

/**
 * No barrier pending: every input is open. The first barrier starts collecting (or aligns at once).
 */
final class WaitingForFirstBarrier implements AlignmentState {
  static final WaitingForFirstBarrier INSTANCE = new WaitingForFirstBarrier();

  private WaitingForFirstBarrier() {}

  @Override
  public AlignmentState onBarrier(AlignerContext ctx, int input, Barrier barrier) {
    if (ctx.inputCount() == 1) {
      ctx.emit(barrier);
      return this;
    }
    BitSet arrived = new BitSet(ctx.inputCount());
    arrived.set(input);
    return new CollectingBarriers(barrier, arrived);
  }

  @Override
  public boolean isBlocked(int input) {
    return false;
  }

  @Override
  public String toString() {
    return "WaitingForFirstBarrier";
  }
}
