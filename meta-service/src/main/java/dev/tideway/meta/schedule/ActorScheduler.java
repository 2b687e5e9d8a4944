package dev.tideway.meta.schedule;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.meta.fragment.IdAllocator;
import dev.tideway.meta.fragment.StreamFragment;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Places the actors of a job's fragments (RisingWave's scheduler, much smaller). Stateless and
 * deterministic: the same fragments, workers and parallelism give the same placement.
 *
 * <p>Rules, per fragment in upstream-first order:
 *
 * <ol>
 *   <li>With a {@code NO_SHUFFLE} input (inside the job, or a {@code StreamScan} of another job's
 *       table): one actor per upstream actor, on the same node with the same vnodes (co-location:
 *       the pair exchanges rows in memory).
 *   <li>Singleton: one actor owning all vnodes, on the worker with the fewest actors per core.
 *   <li>Hash: {@code parallelism} actors (0 = the workers' total cores, capped at the vnode count),
 *       each owning a contiguous vnode range; actor {@code i} goes to slot {@code i} of a
 *       core-weighted round robin over the workers.
 * </ol>
 *
 * Every actor's upstream actors are all actors of each upstream fragment, except across a
 * no-shuffle edge, where it is the one paired actor.
 */
public final class ActorScheduler {
  private ActorScheduler() {}

  /**
   * @param fragments the job's fragments, upstream first
   * @param existing actors of other jobs by fragment id (the targets of cross-job edges)
   * @param workers the live compute nodes
   * @param parallelism actors per hash fragment; 0 = total cores
   */
  public static List<Actor> schedule(
      List<StreamFragment> fragments,
      Map<Integer, List<Actor>> existing,
      List<Worker> workers,
      int parallelism,
      IdAllocator ids) {
    Checks.checkArgument(!workers.isEmpty(), "no compute nodes to schedule actors on");
    int totalCores = workers.stream().mapToInt(Worker::cores).sum();
    int n = Math.min(parallelism == 0 ? totalCores : parallelism, VirtualNode.COUNT);
    List<String> slots = slots(workers);
    Map<Integer, List<Actor>> placed = new HashMap<>(existing);
    Map<String, Integer> load = new HashMap<>();
    List<Actor> out = new ArrayList<>();
    for (StreamFragment f : fragments) {
      List<Actor> actors = place(f, placed, workers, slots, n, load, ids);
      actors.forEach(a -> load.merge(a.node(), 1, Integer::sum));
      placed.put(f.fragmentId(), actors);
      out.addAll(actors);
    }
    return out;
  }

  private static List<Actor> place(
      StreamFragment f,
      Map<Integer, List<Actor>> placed,
      List<Worker> workers,
      List<String> slots,
      int n,
      Map<String, Integer> load,
      IdAllocator ids) {
    Optional<Edge> noShuffle =
        f.upstreams().stream().filter(e -> e.kind() == DispatcherKind.NO_SHUFFLE).findFirst();
    List<Actor> actors = new ArrayList<>();
    if (noShuffle.isPresent()) {
      List<Actor> ups = upstreamActors(f, noShuffle.get(), placed);
      for (Actor u : ups) {
        actors.add(new Actor(ids.allocate(), f.fragmentId(), u.node(), u.vnodes(), List.of()));
      }
    } else if (f.distribution() == FragmentDistribution.SINGLETON) {
      actors.add(
          new Actor(
              ids.allocate(),
              f.fragmentId(),
              leastLoaded(workers, load),
              VnodeBitmap.ALL,
              List.of()));
    } else {
      for (int i = 0; i < n; i++) {
        VnodeBitmap vnodes =
            VnodeBitmap.range(i * VirtualNode.COUNT / n, (i + 1) * VirtualNode.COUNT / n);
        actors.add(
            new Actor(
                ids.allocate(), f.fragmentId(), slots.get(i % slots.size()), vnodes, List.of()));
      }
    }
    List<Actor> wired = wire(f, actors, placed);
    check(f, wired, placed);
    return wired;
  }

  /** Fills each actor's upstream actor ids from the fragment's edges. */
  private static List<Actor> wire(
      StreamFragment f, List<Actor> actors, Map<Integer, List<Actor>> placed) {
    List<Actor> out = new ArrayList<>();
    for (int i = 0; i < actors.size(); i++) {
      Actor a = actors.get(i);
      List<Integer> ups = new ArrayList<>();
      for (Edge e : f.upstreams()) {
        List<Actor> upActors = upstreamActors(f, e, placed);
        if (e.kind() == DispatcherKind.NO_SHUFFLE) {
          ups.add(upActors.get(i).actorId());
        } else {
          upActors.forEach(u -> ups.add(u.actorId()));
        }
      }
      out.add(new Actor(a.actorId(), a.fragmentId(), a.node(), a.vnodes(), ups));
    }
    return out;
  }

  private static List<Actor> upstreamActors(
      StreamFragment f, Edge e, Map<Integer, List<Actor>> placed) {
    List<Actor> ups = placed.get(e.upstreamFragmentId());
    Checks.checkState(
        ups != null && !ups.isEmpty(),
        "fragment %s reads fragment %s, which has no placed actors",
        f.fragmentId(),
        e.upstreamFragmentId());
    return ups;
  }

  /** Paired checks on what was just decided (see the package invariants). */
  private static void check(
      StreamFragment f, List<Actor> actors, Map<Integer, List<Actor>> placed) {
    Set<Integer> seen = new HashSet<>();
    VnodeBitmap union = VnodeBitmap.EMPTY;
    for (Actor a : actors) {
      for (int v = 0; v < VirtualNode.COUNT; v++) {
        Checks.checkState(
            !a.vnodes().contains(v) || seen.add(v),
            "fragment %s: vnode %s owned by two actors",
            f.fragmentId(),
            v);
      }
      union = union.union(a.vnodes());
    }
    Checks.checkState(
        union.count() == VirtualNode.COUNT,
        "fragment %s: actors cover %s of %s vnodes",
        f.fragmentId(),
        union.count(),
        VirtualNode.COUNT);
    for (Edge e : f.upstreams()) {
      if (e.kind() == DispatcherKind.NO_SHUFFLE) {
        List<Actor> ups = placed.get(e.upstreamFragmentId());
        Checks.checkState(
            ups.size() == actors.size(),
            "no-shuffle %s -> %s: %s vs %s actors",
            e.upstreamFragmentId(),
            f.fragmentId(),
            ups.size(),
            actors.size());
        for (int i = 0; i < ups.size(); i++) {
          Checks.checkState(
              ups.get(i).node().equals(actors.get(i).node())
                  && ups.get(i).vnodes().equals(actors.get(i).vnodes()),
              "no-shuffle pair %s -> %s not co-located",
              ups.get(i).actorId(),
              actors.get(i).actorId());
        }
      }
    }
  }

  /** Worker addresses, each repeated per core, interleaved: a, b, a, b, a for cores {3, 2}. */
  private static List<String> slots(List<Worker> workers) {
    List<String> slots = new ArrayList<>();
    int maxCores = workers.stream().mapToInt(Worker::cores).max().orElse(0);
    for (int round = 0; round < maxCores; round++) {
      for (Worker w : workers) {
        if (round < w.cores()) {
          slots.add(w.address());
        }
      }
    }
    return slots;
  }

  private static String leastLoaded(List<Worker> workers, Map<String, Integer> load) {
    Worker best = workers.get(0);
    for (Worker w : workers) {
      double l = load.getOrDefault(w.address(), 0) / (double) w.cores();
      double b = load.getOrDefault(best.address(), 0) / (double) best.cores();
      if (l < b) {
        best = w;
      }
    }
    return best.address();
  }
}
