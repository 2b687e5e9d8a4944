package dev.tideway.frontend.graph;

import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a stream plan at every {@link StreamNode.Exchange}: the exchange's input becomes an upstream
 * fragment dispatched by the exchange's kind and keys, and the exchange is replaced by a {@link
 * StreamNode.Merge} of that fragment. Operator ids are kept. Pure function of the plan.
 */
public final class Fragmenter {
  private final List<StreamGraph.Fragment> fragments = new ArrayList<>();

  private Fragmenter() {}

  public static StreamGraph fragment(StreamPlanNode plan) {
    Fragmenter f = new Fragmenter();
    List<Integer> ups = new ArrayList<>();
    StreamPlanNode root = f.cut(plan, ups);
    f.fragments.add(new StreamGraph.Fragment(f.fragments.size(), root, ups, null, List.of()));
    return new StreamGraph(f.fragments);
  }

  private StreamPlanNode cut(StreamPlanNode n, List<Integer> upstreams) {
    if (n.node() instanceof StreamNode.Exchange e) {
      List<Integer> ups = new ArrayList<>();
      StreamPlanNode upRoot = cut(n.inputs().get(0), ups);
      int id = fragments.size();
      fragments.add(new StreamGraph.Fragment(id, upRoot, ups, e.kind(), e.distKeys()));
      upstreams.add(id);
      return StreamPlanNode.leaf(
          n.operatorId(), new StreamNode.Merge(id, e.kind()), n.outputSchema());
    }
    List<StreamPlanNode> inputs = new ArrayList<>();
    for (StreamPlanNode in : n.inputs()) {
      inputs.add(cut(in, upstreams));
    }
    return new StreamPlanNode(n.operatorId(), n.node(), inputs, n.outputSchema());
  }
}
