package dev.tideway.meta.fragment;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a job's plan into fragments at exchanges (RisingWave's {@code StreamFragmenter}, much
 * smaller). A fragment is singleton when an input edge is {@code SIMPLE} or it holds a global
 * (ungrouped) aggregation; otherwise hash-distributed. Stateless.
 */
public final class Fragmenter {
  private Fragmenter() {}

  /** The fragments of {@code root}, upstream first; the last one holds {@code root}. */
  public static List<StreamFragment> fragment(StreamPlanNode root, IdAllocator ids) {
    Checks.checkArgument(
        !(root.node() instanceof StreamNode.Exchange),
        "plan root operator %s is an Exchange; a job must end in an operator",
        root.operatorId());
    List<StreamFragment> out = new ArrayList<>();
    build(root, ids, out);
    return out;
  }

  private static int build(StreamPlanNode top, IdAllocator ids, List<StreamFragment> out) {
    List<Edge> edges = new ArrayList<>();
    StreamPlanNode cut = cut(top, ids, out, edges);
    int fragmentId = ids.allocate();
    List<Integer> tables = new ArrayList<>();
    List<Integer> upstreamTables = new ArrayList<>();
    boolean globalAgg = collectTables(cut, tables, upstreamTables);
    boolean singleton =
        globalAgg || edges.stream().anyMatch(e -> e.kind() == DispatcherKind.SIMPLE);
    out.add(
        new StreamFragment(
            fragmentId,
            cut,
            singleton ? FragmentDistribution.SINGLETON : FragmentDistribution.HASH,
            edges,
            tables,
            upstreamTables));
    return fragmentId;
  }

  /** Rebuilds {@code node} with every Exchange input replaced by a Merge of a new fragment. */
  private static StreamPlanNode cut(
      StreamPlanNode node, IdAllocator ids, List<StreamFragment> out, List<Edge> edges) {
    List<StreamPlanNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (StreamPlanNode in : node.inputs()) {
      if (in.node() instanceof StreamNode.Exchange ex) {
        int upstream = build(in.inputs().get(0), ids, out);
        edges.add(new Edge(upstream, ex.kind(), ex.distKeys(), false));
        inputs.add(
            StreamPlanNode.leaf(
                in.operatorId(), new StreamNode.Merge(upstream, ex.kind()), in.outputSchema()));
        changed = true;
      } else {
        StreamPlanNode rebuilt = cut(in, ids, out, edges);
        changed |= rebuilt != in;
        inputs.add(rebuilt);
      }
    }
    return changed
        ? new StreamPlanNode(node.operatorId(), node.node(), inputs, node.outputSchema())
        : node;
  }

  /** Collects owned and read table ids; returns whether the tree holds a global aggregation. */
  private static boolean collectTables(
      StreamPlanNode node, List<Integer> owned, List<Integer> read) {
    boolean globalAgg = false;
    StreamNode body = node.node();
    if (body instanceof StreamNode.Source s) {
      owned.add(s.stateTable().tableId());
    } else if (body instanceof StreamNode.StreamScan s) {
      owned.add(s.backfillStateTable().tableId());
      read.add(s.upstreamTableId());
    } else if (body instanceof StreamNode.HashAgg a) {
      owned.add(a.intermediateStateTable().tableId());
      a.callStateTables().values().stream().map(TableDesc::tableId).sorted().forEach(owned::add);
      globalAgg = a.groupKeys().isEmpty();
    } else if (body instanceof StreamNode.HashJoin j) {
      owned.add(j.leftTable().tableId());
      owned.add(j.rightTable().tableId());
    } else if (body instanceof StreamNode.PaneHopAgg p) {
      owned.add(p.table().tableId());
    } else if (body instanceof StreamNode.Materialize m) {
      owned.add(m.table().tableId());
    }
    for (StreamPlanNode in : node.inputs()) {
      globalAgg |= collectTables(in, owned, read);
    }
    return globalAgg;
  }

  /** Every state table the plan's operators own, with its descriptor, in plan order. */
  public static List<TableDesc> stateTables(StreamPlanNode node) {
    List<TableDesc> out = new ArrayList<>();
    StreamNode body = node.node();
    if (body instanceof StreamNode.Source s) {
      out.add(s.stateTable());
    } else if (body instanceof StreamNode.StreamScan s) {
      out.add(s.backfillStateTable());
    } else if (body instanceof StreamNode.HashAgg a) {
      out.add(a.intermediateStateTable());
      a.callStateTables().entrySet().stream()
          .sorted(java.util.Map.Entry.comparingByKey())
          .forEach(e -> out.add(e.getValue()));
    } else if (body instanceof StreamNode.HashJoin j) {
      out.add(j.leftTable());
      out.add(j.rightTable());
    } else if (body instanceof StreamNode.PaneHopAgg p) {
      out.add(p.table());
    } else if (body instanceof StreamNode.Materialize m) {
      out.add(m.table());
    }
    for (StreamPlanNode in : node.inputs()) {
      out.addAll(stateTables(in));
    }
    return out;
  }
}
