package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Cuts a stream plan at every {@link StreamNode.Exchange} into a {@link StreamFragmentGraph}
 * (RisingWave's {@code StreamFragmenter}, much smaller): the exchange's input becomes an upstream
 * fragment, the exchange an {@link StreamFragmentGraph.Edge} with its dispatcher kind and keys, and
 * a {@link StreamNode.Merge} leaf (with the exchange's operator id) in the downstream fragment. The
 * one fragmenter: EXPLAIN prints what it returns, and the meta service persists and schedules it.
 *
 * <p>Ids: each fragment takes the next id of {@code ids} once its upstream fragments have theirs,
 * so an upstream fragment's id is below its downstream's and the root's fragment comes last; the
 * graph lists fragments in that order. A fragment is a singleton (one actor) when one of its input
 * edges is {@code SIMPLE} (everything goes to one actor) or it holds a global (ungrouped)
 * aggregation.
 *
 * <p>Pure function of the plan and the ids.
 */
public final class Fragmenter {
  private final IntSupplier ids;
  private final List<StreamFragmentGraph.Fragment> fragments = new ArrayList<>();
  private final List<StreamFragmentGraph.Edge> edges = new ArrayList<>();

  private Fragmenter(IntSupplier ids) {
    this.ids = ids;
  }

  /**
   * The fragments of {@code root} with ids from {@code ids}; fails when the root is an exchange.
   */
  public static StreamFragmentGraph fragment(StreamPlanNode root, IntSupplier ids) {
    Checks.checkArgument(
        !(root.node() instanceof StreamNode.Exchange),
        "plan root operator %s is an Exchange; a job must end in an operator",
        root.operatorId());
    Fragmenter f = new Fragmenter(ids);
    f.build(root);
    return new StreamFragmentGraph(f.fragments, f.edges);
  }

  /** {@link #fragment(StreamPlanNode, IntSupplier)} with ids 0, 1, 2, ... (EXPLAIN). */
  public static StreamFragmentGraph fragment(StreamPlanNode root) {
    int[] next = {0};
    return fragment(root, () -> next[0]++);
  }

  private int build(StreamPlanNode top) {
    List<int[]> inputs = new ArrayList<>(); // {upstream fragment, edge index}
    StreamPlanNode cut = cut(top, inputs);
    int id = ids.getAsInt();
    boolean simpleInput = false;
    for (int[] in : inputs) {
      StreamFragmentGraph.Edge e = edges.get(in[1]);
      edges.set(in[1], new StreamFragmentGraph.Edge(in[0], id, e.kind(), e.distKeys()));
      simpleInput |= e.kind() == DispatcherKind.SIMPLE;
    }
    fragments.add(new StreamFragmentGraph.Fragment(id, cut, simpleInput || globalAgg(cut)));
    return id;
  }

  /** {@code node} with every Exchange input replaced by a Merge of a new upstream fragment. */
  private StreamPlanNode cut(StreamPlanNode node, List<int[]> inputs) {
    List<StreamPlanNode> rebuilt = new ArrayList<>();
    boolean changed = false;
    for (StreamPlanNode in : node.inputs()) {
      if (in.node() instanceof StreamNode.Exchange ex) {
        int upstream = build(in.inputs().get(0));
        // the downstream id is not known yet: a placeholder edge, completed in build()
        edges.add(
            new StreamFragmentGraph.Edge(upstream, Integer.MAX_VALUE, ex.kind(), ex.distKeys()));
        inputs.add(new int[] {upstream, edges.size() - 1});
        rebuilt.add(
            StreamPlanNode.leaf(
                in.operatorId(), new StreamNode.Merge(upstream, ex.kind()), in.outputSchema()));
        changed = true;
      } else {
        StreamPlanNode r = cut(in, inputs);
        changed |= r != in;
        rebuilt.add(r);
      }
    }
    return changed
        ? new StreamPlanNode(node.operatorId(), node.node(), rebuilt, node.outputSchema())
        : node;
  }

  /** Whether the fragment holds an aggregation without group keys (one group: one actor). */
  private static boolean globalAgg(StreamPlanNode node) {
    if (node.node() instanceof StreamNode.HashAgg a && a.groupKeys().isEmpty()) {
      return true;
    }
    for (StreamPlanNode in : node.inputs()) {
      if (globalAgg(in)) {
        return true;
      }
    }
    return false;
  }
}
