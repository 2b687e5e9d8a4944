package dev.tideway.meta.fragment;

import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.List;

/**
 * One fragment before placement: its operator tree (with {@code Merge} leaves where it was cut),
 * how it is distributed, its input edges and the tables it owns or reads.
 *
 * @param fragmentId globally unique
 * @param root the fragment's operator tree
 * @param distribution singleton or hash
 * @param upstreams the input edges, in the order of the Merge leaves
 * @param stateTableIds the state tables its operators own
 * @param upstreamTableIds the tables its {@code StreamScan}s read (MV on MV)
 */
public record StreamFragment(
    int fragmentId,
    StreamPlanNode root,
    FragmentDistribution distribution,
    List<Edge> upstreams,
    List<Integer> stateTableIds,
    List<Integer> upstreamTableIds) {
  public StreamFragment {
    upstreams = List.copyOf(upstreams);
    stateTableIds = List.copyOf(stateTableIds);
    upstreamTableIds = List.copyOf(upstreamTableIds);
  }

  public StreamFragment withUpstreams(List<Edge> edges) {
    return new StreamFragment(
        fragmentId, root, distribution, edges, stateTableIds, upstreamTableIds);
  }
}
