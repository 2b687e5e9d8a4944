package dev.tideway.meta.fragment;

import dev.tideway.common.plan.StreamFragmentGraph;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's plan as the fragments meta persists and schedules: the one fragmenter of common ({@link
 * dev.tideway.common.plan.Fragmenter}, which EXPLAIN prints too) cuts it, with globally unique ids
 * from {@code ids}; this adds what placement needs, each fragment's distribution, input edges and
 * the tables it owns and reads. Stateless.
 */
public final class Fragmenter {
  private Fragmenter() {}

  /** The fragments of {@code root}, upstream first; the last one holds {@code root}. */
  public static List<StreamFragment> fragment(StreamPlanNode root, IdAllocator ids) {
    StreamFragmentGraph g = dev.tideway.common.plan.Fragmenter.fragment(root, ids::allocate);
    List<StreamFragment> out = new ArrayList<>();
    for (StreamFragmentGraph.Fragment f : g.fragments()) {
      List<Edge> edges = new ArrayList<>();
      for (StreamFragmentGraph.Edge e : g.edges()) {
        if (e.downstreamFragmentId() == f.fragmentId()) {
          edges.add(new Edge(e.upstreamFragmentId(), e.kind(), e.distKeys(), false));
        }
      }
      List<Integer> tables = new ArrayList<>();
      List<Integer> upstreamTables = new ArrayList<>();
      collectTables(f.root(), tables, upstreamTables);
      out.add(
          new StreamFragment(
              f.fragmentId(),
              f.root(),
              f.singleton() ? FragmentDistribution.SINGLETON : FragmentDistribution.HASH,
              edges,
              tables,
              upstreamTables));
    }
    return out;
  }

  /** Collects the table ids the fragment's operators own and read. */
  private static void collectTables(StreamPlanNode node, List<Integer> owned, List<Integer> read) {
    StreamNode body = node.node();
    if (body instanceof StreamNode.Source s) {
      owned.add(s.stateTable().tableId());
    } else if (body instanceof StreamNode.StreamScan s) {
      owned.add(s.backfillStateTable().tableId());
      read.add(s.upstreamTableId());
    } else if (body instanceof dev.tideway.common.plan.SourceBackfillNode s) {
      owned.add(s.stateTable().tableId());
      read.add(s.sourceId());
    } else if (body instanceof StreamNode.HashAgg a) {
      owned.add(a.intermediateStateTable().tableId());
      a.callStateTables().values().stream().map(TableDesc::tableId).sorted().forEach(owned::add);
    } else if (body instanceof StreamNode.HashJoin j) {
      owned.add(j.leftTable().tableId());
      owned.add(j.rightTable().tableId());
    } else if (body instanceof StreamNode.PaneHopAgg p) {
      owned.add(p.table().tableId());
    } else if (body instanceof StreamNode.Materialize m) {
      owned.add(m.table().tableId());
    }
    for (StreamPlanNode in : node.inputs()) {
      collectTables(in, owned, read);
    }
  }

  /** Every state table the plan's operators own, with its descriptor, in plan order. */
  public static List<TableDesc> stateTables(StreamPlanNode node) {
    List<TableDesc> out = new ArrayList<>();
    StreamNode body = node.node();
    if (body instanceof StreamNode.Source s) {
      out.add(s.stateTable());
    } else if (body instanceof StreamNode.StreamScan s) {
      out.add(s.backfillStateTable());
    } else if (body instanceof dev.tideway.common.plan.SourceBackfillNode s) {
      out.add(s.stateTable());
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
    } else if (body instanceof dev.tideway.common.plan.SinkNode k) {
      out.add(k.logStore());
    }
    for (StreamPlanNode in : node.inputs()) {
      out.addAll(stateTables(in));
    }
    return out;
  }
}
