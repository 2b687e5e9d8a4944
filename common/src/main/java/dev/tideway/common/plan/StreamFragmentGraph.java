package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A streaming job cut into fragments: the unit meta persists, schedules (one actor per fragment per
 * parallel instance) and ships to compute nodes. The fragmenter makes it from a plan by cutting at
 * each {@link StreamNode.Exchange}: the exchange becomes an {@link Edge} (the upstream fragment's
 * dispatcher) and a {@link StreamNode.Merge} leaf in the downstream fragment.
 *
 * <p>Invariants (checked here): fragment ids are unique; every edge joins two existing, distinct
 * fragments; the edges form no cycle (data flows one way, so barriers can flow through it).
 *
 * @param fragments the fragments, any order
 * @param edges the exchanges between fragments
 */
public record StreamFragmentGraph(List<Fragment> fragments, List<Edge> edges) {
  /**
   * One fragment: an operator tree whose leaves are sources, scans, DML or merges.
   *
   * @param fragmentId unique within the job, {@code >= 0}
   * @param root the fragment's top operator (a Materialize, or the operator under an exchange)
   * @param singleton the fragment must run as exactly one actor (a global aggregate, for example)
   */
  public record Fragment(int fragmentId, StreamPlanNode root, boolean singleton) {
    public Fragment {
      Checks.checkArgument(fragmentId >= 0, "fragment id must be >= 0, got %s", fragmentId);
      Checks.checkNotNull(root, "fragment " + fragmentId + " root");
    }
  }

  /**
   * Rows flow from {@code upstreamFragmentId}'s actors to {@code downstreamFragmentId}'s.
   *
   * @param upstreamFragmentId the sending fragment (its dispatcher)
   * @param downstreamFragmentId the receiving fragment (its merge)
   * @param kind how the dispatcher routes rows
   * @param distKeys for HASH, the upstream output columns hashed to a vnode; empty otherwise
   */
  public record Edge(
      int upstreamFragmentId,
      int downstreamFragmentId,
      DispatcherKind kind,
      List<Integer> distKeys) {
    public Edge {
      Checks.checkNotNull(kind, "edge dispatcher kind");
      distKeys = List.copyOf(distKeys);
      Checks.checkArgument(
          (kind == DispatcherKind.HASH) != distKeys.isEmpty(),
          "edge %s -> %s: %s with distribution keys %s (HASH needs some, the others none)",
          upstreamFragmentId,
          downstreamFragmentId,
          kind,
          distKeys);
      Checks.checkArgument(
          upstreamFragmentId != downstreamFragmentId,
          "edge from fragment %s to itself",
          upstreamFragmentId);
    }
  }

  public StreamFragmentGraph {
    fragments = List.copyOf(fragments);
    edges = List.copyOf(edges);
    Set<Integer> ids = new HashSet<>();
    for (Fragment f : fragments) {
      Checks.checkArgument(ids.add(f.fragmentId()), "fragment id %s used twice", f.fragmentId());
    }
    for (Edge e : edges) {
      Checks.checkArgument(
          ids.contains(e.upstreamFragmentId()) && ids.contains(e.downstreamFragmentId()),
          "edge %s -> %s names a fragment not in %s",
          e.upstreamFragmentId(),
          e.downstreamFragmentId(),
          ids);
    }
    checkAcyclic(ids, edges);
  }

  /** The fragment with {@code fragmentId}; fails naming it when absent. */
  public Fragment fragment(int fragmentId) {
    for (Fragment f : fragments) {
      if (f.fragmentId() == fragmentId) {
        return f;
      }
    }
    throw new IllegalArgumentException("no fragment " + fragmentId);
  }

  private static void checkAcyclic(Set<Integer> ids, List<Edge> edges) {
    Map<Integer, Integer> inDegree = new HashMap<>();
    for (int id : ids) {
      inDegree.put(id, 0);
    }
    for (Edge e : edges) {
      inDegree.merge(e.downstreamFragmentId(), 1, Integer::sum);
    }
    Deque<Integer> ready = new ArrayDeque<>();
    inDegree.forEach(
        (id, d) -> {
          if (d == 0) {
            ready.add(id);
          }
        });
    int visited = 0;
    while (!ready.isEmpty()) {
      int id = ready.poll();
      visited++;
      for (Edge e : edges) {
        if (e.upstreamFragmentId() == id
            && inDegree.merge(e.downstreamFragmentId(), -1, Integer::sum) == 0) {
          ready.add(e.downstreamFragmentId());
        }
      }
    }
    Checks.checkArgument(visited == ids.size(), "fragment edges form a cycle: %s", edges);
  }
}
