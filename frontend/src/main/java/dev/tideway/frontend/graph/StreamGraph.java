package dev.tideway.frontend.graph;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.List;

/**
 * A job's fragments, upstream first; the last is the one holding the Materialize.
 *
 * @param fragments the fragments in topological order
 */
public record StreamGraph(List<Fragment> fragments) {
  public StreamGraph {
    fragments = List.copyOf(fragments);
  }

  /**
   * One fragment: a tree of operators whose leaves are scans, sources or merges.
   *
   * @param id fragment id, 0-based in topological order
   * @param root the fragment's top operator
   * @param upstreams fragments feeding this one's merges
   * @param dispatcher how this fragment's output goes downstream (null for the last fragment)
   * @param distKeys the hash keys of a HASH dispatcher
   */
  public record Fragment(
      int id,
      StreamPlanNode root,
      List<Integer> upstreams,
      DispatcherKind dispatcher,
      List<Integer> distKeys) {
    public Fragment {
      upstreams = List.copyOf(upstreams);
      distKeys = List.copyOf(distKeys);
    }
  }
}
