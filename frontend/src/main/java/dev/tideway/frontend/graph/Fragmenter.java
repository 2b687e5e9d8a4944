package dev.tideway.frontend.graph;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamFragmentGraph;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a stream plan at every {@link StreamNode.Exchange} into a {@link StreamFragmentGraph}: the
 * exchange's input becomes an upstream fragment, the exchange an {@link StreamFragmentGraph.Edge}
 * with its dispatcher kind and keys, and a {@link StreamNode.Merge} leaf in the downstream
 * fragment. The fragment holding the plan's root is fragment 0; a fragment fed by a SIMPLE exchange
 * is a singleton. Operator ids are kept. Pure function of the plan.
 */
public final class Fragmenter {
  private final List<StreamFragmentGraph.Fragment> fragments = new ArrayList<>();
  private final List<StreamFragmentGraph.Edge> edges = new ArrayList<>();
  private int nextId;

  private Fragmenter() {}

  public static StreamFragmentGraph fragment(StreamPlanNode plan) {
    Fragmenter f = new Fragmenter();
    f.build(plan, false);
    return new StreamFragmentGraph(f.fragments, f.edges);
  }

  private int build(StreamPlanNode root, boolean singleton) {
    int id = nextId++;
    StreamPlanNode cut = cut(root, id);
    fragments.add(new StreamFragmentGraph.Fragment(id, cut, singleton));
    return id;
  }

  private StreamPlanNode cut(StreamPlanNode n, int fragmentId) {
    if (n.node() instanceof StreamNode.Exchange e) {
      int up = build(n.inputs().get(0), e.kind() == DispatcherKind.SIMPLE);
      edges.add(new StreamFragmentGraph.Edge(up, fragmentId, e.kind(), e.distKeys()));
      return StreamPlanNode.leaf(
          n.operatorId(), new StreamNode.Merge(up, e.kind()), n.outputSchema());
    }
    List<StreamPlanNode> inputs = new ArrayList<>();
    for (StreamPlanNode in : n.inputs()) {
      inputs.add(cut(in, fragmentId));
    }
    return new StreamPlanNode(n.operatorId(), n.node(), inputs, n.outputSchema());
  }
}
