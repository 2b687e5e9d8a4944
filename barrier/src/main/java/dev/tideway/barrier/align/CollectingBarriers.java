package dev.tideway.barrier.align;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.check.Checks;
import java.util.BitSet;

/**
 * Some inputs delivered {@code pending}; they are blocked. Every other input must deliver the same
 * epoch and kind; when the last does, the barrier is emitted and all inputs open again.
 */
final class CollectingBarriers implements AlignmentState {
  private final Barrier pending;
  private final BitSet arrived;

  CollectingBarriers(Barrier pending, BitSet arrived) {
    this.pending = pending;
    this.arrived = arrived;
  }

  @Override
  public AlignmentState onBarrier(AlignerContext ctx, int input, Barrier barrier) {
    Checks.checkState(
        !arrived.get(input),
        "%s: input %s delivered barrier %s while blocked on %s",
        ctx.owner(),
        input,
        barrier,
        pending);
    Checks.checkState(
        barrier.epoch().equals(pending.epoch()) && barrier.kind() == pending.kind(),
        "%s: input %s delivered barrier %s but other inputs delivered %s",
        ctx.owner(),
        input,
        barrier,
        pending);
    arrived.set(input);
    if (arrived.cardinality() == ctx.inputCount()) {
      ctx.emit(pending);
      return WaitingForFirstBarrier.INSTANCE;
    }
    return this;
  }

  @Override
  public boolean isBlocked(int input) {
    return arrived.get(input);
  }

  @Override
  public String toString() {
    return "CollectingBarriers(" + pending + ", arrived " + arrived + ")";
  }
}
