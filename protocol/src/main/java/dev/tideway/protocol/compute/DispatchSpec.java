package dev.tideway.protocol.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VirtualNode;
import java.util.List;

/**
 * How an actor's root routes its output to the next fragment's actors.
 *
 * @param kind hash, broadcast, simple or no-shuffle
 * @param distKeys the columns hashed to a vnode (HASH only)
 * @param downstreamActors the receiving actors (exactly one for SIMPLE and NO_SHUFFLE)
 * @param vnodeOwners HASH only: for each of the 256 vnodes, the index into {@code downstreamActors}
 *     of its owner; empty otherwise
 */
public record DispatchSpec(
    DispatcherKind kind,
    List<Integer> distKeys,
    List<Integer> downstreamActors,
    List<Integer> vnodeOwners) {
  public DispatchSpec {
    distKeys = List.copyOf(distKeys);
    downstreamActors = List.copyOf(downstreamActors);
    vnodeOwners = List.copyOf(vnodeOwners);
    Checks.checkArgument(
        !downstreamActors.isEmpty(), "%s dispatch without downstream actors", kind);
    boolean single = kind == DispatcherKind.SIMPLE || kind == DispatcherKind.NO_SHUFFLE;
    Checks.checkArgument(
        !single || downstreamActors.size() == 1,
        "%s dispatch needs exactly one downstream actor, got %s",
        kind,
        downstreamActors);
    Checks.checkArgument(
        kind != DispatcherKind.HASH || vnodeOwners.size() == VirtualNode.COUNT,
        "HASH dispatch needs %s vnode owners, got %s",
        VirtualNode.COUNT,
        vnodeOwners.size());
  }

  /** Vnode {@code v} goes to downstream actor {@code actors.get(v % actors.size())}. */
  public static DispatchSpec hashRoundRobin(
      List<Integer> distKeys, List<Integer> downstreamActors) {
    Integer[] owners = new Integer[VirtualNode.COUNT];
    for (int v = 0; v < owners.length; v++) {
      owners[v] = v % downstreamActors.size();
    }
    return new DispatchSpec(DispatcherKind.HASH, distKeys, downstreamActors, List.of(owners));
  }
}
