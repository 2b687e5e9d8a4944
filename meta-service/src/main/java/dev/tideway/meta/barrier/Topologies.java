package dev.tideway.meta.barrier;

import dev.tideway.barrier.global.NodeActors;
import dev.tideway.barrier.global.Topology;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The barrier topology of a catalog, derived purely from the persisted fragment graphs: node ids
 * are the 1-based positions of the node addresses in sorted order, or (the barrier loop) ids that
 * stay fixed for a leader term ({@link NodeIds}); barriers are sent to the actors of fragments
 * without an in-job upstream (sources, scans) and collected from every actor; a checkpoint syncs
 * the state tables of the fragments on each node.
 */
public final class Topologies {
  private Topologies() {}

  public static Map<String, Integer> nodeIds(CatalogState state) {
    TreeSet<String> nodes = new TreeSet<>();
    state.fragments().values().forEach(g -> g.actors().forEach(a -> nodes.add(a.node())));
    Map<String, Integer> ids = new TreeMap<>();
    int i = 1;
    for (String n : nodes) {
      ids.put(n, i++);
    }
    return ids;
  }

  public static Topology of(CatalogState state) {
    return of(state, nodeIds(state));
  }

  /** The topology of {@code state} with the given node ids (every actor's node must have one). */
  public static Topology of(CatalogState state, Map<String, Integer> ids) {
    Map<Integer, List<Integer>> send = new TreeMap<>();
    Map<Integer, List<Integer>> collect = new TreeMap<>();
    Map<Integer, TreeSet<Integer>> tables = new TreeMap<>();
    for (FragmentGraph g : state.fragments().values()) {
      for (FragmentGraph.Fragment f : g.fragments()) {
        boolean root = f.upstreams().stream().allMatch(FragmentGraph.Edge::crossJob);
        for (Actor a : g.actorsOf(f.fragmentId())) {
          int node = ids.get(a.node());
          collect.computeIfAbsent(node, k -> new ArrayList<>()).add(a.actorId());
          if (root) {
            send.computeIfAbsent(node, k -> new ArrayList<>()).add(a.actorId());
          }
          tables.computeIfAbsent(node, k -> new TreeSet<>()).addAll(f.stateTableIds());
        }
      }
    }
    List<NodeActors> nodes = new ArrayList<>();
    collect.forEach(
        (node, actors) ->
            nodes.add(
                new NodeActors(
                    node,
                    ints(send.getOrDefault(node, List.of())),
                    ints(actors),
                    ints(new ArrayList<>(tables.getOrDefault(node, new TreeSet<>()))))));
    return new Topology(nodes);
  }

  private static int[] ints(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).toArray();
  }
}
