package dev.tideway.meta.barrier;

import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How a new job's actors connect to the running graph, derived purely from the catalog: the
 * upstream actors of other jobs that gain outputs (cross-job edges: MV on MV, MV on table), and the
 * node of every actor the new actors exchange with. A {@link ComputeClient#build} sends this along
 * with the actors.
 *
 * @param jobId the new job
 * @param newOutputs for each upstream actor of another job, the new job's actors it must now feed
 * @param actorNodes the node address of every actor of the job and of every upstream actor
 */
public record ActorWiring(
    int jobId, Map<Integer, List<Integer>> newOutputs, Map<Integer, String> actorNodes) {
  public ActorWiring {
    newOutputs = Map.copyOf(newOutputs);
    actorNodes = Map.copyOf(actorNodes);
  }

  /** The wiring of {@code graph} into the other jobs of {@code catalog}. */
  public static ActorWiring of(FragmentGraph graph, CatalogState catalog) {
    Map<Integer, String> nodes = new HashMap<>();
    for (FragmentGraph g : catalog.fragments().values()) {
      g.actors().forEach(a -> nodes.put(a.actorId(), a.node()));
    }
    Set<Integer> own = graph.actors().stream().map(Actor::actorId).collect(Collectors.toSet());
    Map<Integer, String> involved = new TreeMap<>();
    Map<Integer, List<Integer>> outputs = new TreeMap<>();
    for (Actor a : graph.actors()) {
      involved.put(a.actorId(), a.node());
      for (int up : a.upstreamActorIds()) {
        String node = nodes.get(up);
        if (node != null) {
          involved.put(up, node);
        }
        if (!own.contains(up)) {
          outputs.computeIfAbsent(up, k -> new ArrayList<>()).add(a.actorId());
        }
      }
    }
    return new ActorWiring(graph.jobId(), outputs, involved);
  }

  /** The nodes involved: those of the job's actors and of its upstream actors. */
  public Set<String> nodes() {
    return Set.copyOf(actorNodes.values());
  }
}
