package dev.tideway.barrier.control;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.check.Checks;

/**
 * Meta → one node: inject {@code barrier} into the node's root actors ({@code actorsToSend}),
 * expect it collected from {@code actorsToCollect}, and sync {@code tablesToSync} if it is a
 * checkpoint. {@code generation} counts recoveries; every reply echoes it so replies from before a
 * recovery are recognised and dropped. Arrays are not copied: treat them as immutable.
 */
public record InjectBarrier(
    int nodeId,
    long generation,
    Barrier barrier,
    int[] actorsToSend,
    int[] actorsToCollect,
    int[] tablesToSync) {
  public InjectBarrier {
    Checks.checkNotNull(barrier, "barrier");
    Checks.checkArgument(
        actorsToCollect.length > 0, "node %s: inject %s collects from no actor", nodeId, barrier);
  }

  @Override
  public String toString() {
    return "InjectBarrier{node="
        + nodeId
        + ", gen="
        + generation
        + ", "
        + barrier
        + ", send="
        + actorsToSend.length
        + ", collect="
        + actorsToCollect.length
        + "}";
  }
}
