package dev.tideway.barrier.global;

import dev.tideway.barrier.util.IntIntMap;
import dev.tideway.common.check.Checks;
import java.util.List;

/** Which nodes a barrier goes to and what each must collect. Immutable. */
public final class Topology {
  private final List<NodeActors> nodes;
  private final IntIntMap indexOfNode;

  public Topology(List<NodeActors> nodes) {
    this.nodes = List.copyOf(nodes);
    this.indexOfNode = new IntIntMap(nodes.size());
    for (int i = 0; i < this.nodes.size(); i++) {
      NodeActors n = this.nodes.get(i);
      Checks.checkArgument(
          !indexOfNode.containsKey(n.nodeId()), "node %s listed twice", n.nodeId());
      Checks.checkArgument(
          n.actorsToCollect().length > 0,
          "node %s has no actors to collect; leave it out",
          n.nodeId());
      indexOfNode.put(n.nodeId(), i);
    }
  }

  public List<NodeActors> nodes() {
    return nodes;
  }

  public int size() {
    return nodes.size();
  }

  /** The index of {@code nodeId} in {@link #nodes()}, or -1. */
  public int indexOf(int nodeId) {
    return indexOfNode.get(nodeId, -1);
  }

  public boolean contains(int nodeId) {
    return indexOfNode.containsKey(nodeId);
  }

  /** This topology without {@code actors}; a node left with none to collect is left out. */
  public Topology without(java.util.Set<Integer> actors) {
    if (actors.isEmpty()) {
      return this;
    }
    List<NodeActors> out = new java.util.ArrayList<>(nodes.size());
    for (NodeActors n : nodes) {
      int[] send =
          java.util.Arrays.stream(n.actorsToSend()).filter(a -> !actors.contains(a)).toArray();
      int[] collect =
          java.util.Arrays.stream(n.actorsToCollect()).filter(a -> !actors.contains(a)).toArray();
      if (collect.length > 0) {
        out.add(new NodeActors(n.nodeId(), send, collect, n.tablesToSync()));
      }
    }
    return new Topology(out);
  }
}
