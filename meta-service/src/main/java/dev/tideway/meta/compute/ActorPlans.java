package dev.tideway.meta.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import dev.tideway.protocol.catalog.FragmentGraph.Fragment;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.DispatchSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Translates meta's persisted fragment graphs into the compute node's build commands: one {@link
 * ActorSpec} per actor (decoded operator tree, vnodes, upstream actors per merge, dispatchers to
 * every downstream fragment) and, for a job that reads another job's table, the dispatchers its
 * upstream actors must gain.
 *
 * <p>Pure: the same catalog always gives the same plans. A fragment's dispatchers cover its in-job
 * downstream fragment and every other job's fragment that reads it (MV on table, MV on MV), so a
 * rebuild after recovery wires the whole world at once.
 */
public final class ActorPlans {
  private final CatalogState catalog;
  private final PlanCodec codec;

  /** Every fragment of every job, by fragment id. */
  private final Map<Integer, Fragment> fragments = new HashMap<>();

  /** Every actor of every job, by actor id. */
  private final Map<Integer, Actor> actors = new HashMap<>();

  /** Fragment id → its actors (actor id order as stored). */
  private final Map<Integer, List<Actor>> actorsOf = new HashMap<>();

  /** Fragment id → the job it belongs to. */
  private final Map<Integer, Integer> jobOfFragment = new HashMap<>();

  /** Fragment id → the fragments (any job) that read it, with the edge they read it by. */
  private final Map<Integer, List<Downstream>> downstreams = new HashMap<>();

  private record Downstream(Fragment fragment, Edge edge) {}

  /** What one node must build. */
  public record NodeBuild(
      String node,
      List<ActorSpec> actors,
      Map<Integer, List<DispatchSpec>> newOutputs,
      Map<Integer, String> actorNodes) {}

  public ActorPlans(CatalogState catalog, PlanCodec codec) {
    this.catalog = catalog;
    this.codec = codec;
    for (FragmentGraph g : catalog.fragments().values()) {
      for (Fragment f : g.fragments()) {
        fragments.put(f.fragmentId(), f);
        jobOfFragment.put(f.fragmentId(), g.jobId());
        actorsOf.put(f.fragmentId(), g.actorsOf(f.fragmentId()));
      }
      for (Actor a : g.actors()) {
        actors.put(a.actorId(), a);
      }
    }
    for (Fragment f : fragments.values()) {
      for (Edge e : f.upstreams()) {
        downstreams
            .computeIfAbsent(e.upstreamFragmentId(), k -> new ArrayList<>())
            .add(new Downstream(f, e));
      }
    }
    downstreams
        .values()
        .forEach(l -> l.sort((x, y) -> x.fragment().fragmentId() - y.fragment().fragmentId()));
  }

  /** Every actor of every job, grouped by node (recovery rebuilds the world). */
  public Map<String, NodeBuild> all() {
    Map<String, List<ActorSpec>> byNode = new TreeMap<>();
    for (Actor a : sortedActors(actors.values())) {
      byNode.computeIfAbsent(a.node(), k -> new ArrayList<>()).add(spec(a, null));
    }
    Map<String, NodeBuild> out = new TreeMap<>();
    byNode.forEach((node, specs) -> out.put(node, build(node, specs, Map.of())));
    return out;
  }

  /**
   * The actors of {@code jobId} grouped by node, plus the outputs existing actors of other jobs
   * gain towards them (on the nodes of those upstream actors).
   */
  public Map<String, NodeBuild> job(int jobId) {
    FragmentGraph g = catalog.fragments().get(jobId);
    Checks.checkArgument(g != null, "job %s has no fragment graph", jobId);
    Map<String, List<ActorSpec>> byNode = new TreeMap<>();
    for (Actor a : sortedActors(g.actors())) {
      byNode.computeIfAbsent(a.node(), k -> new ArrayList<>()).add(spec(a, jobId));
    }
    Map<String, Map<Integer, List<DispatchSpec>>> outputs = new TreeMap<>();
    for (Fragment f : g.fragments()) {
      for (Edge e : f.upstreams()) {
        if (!e.crossJob()) {
          continue;
        }
        for (Actor up : actorsOf.getOrDefault(e.upstreamFragmentId(), List.of())) {
          DispatchSpec d = dispatch(up, new Downstream(f, e));
          outputs
              .computeIfAbsent(up.node(), k -> new TreeMap<>())
              .computeIfAbsent(up.actorId(), k -> new ArrayList<>())
              .add(d);
        }
      }
    }
    Map<String, NodeBuild> out = new TreeMap<>();
    for (String node : union(byNode.keySet(), outputs.keySet())) {
      out.put(
          node,
          build(node, byNode.getOrDefault(node, List.of()), outputs.getOrDefault(node, Map.of())));
    }
    return out;
  }

  private NodeBuild build(
      String node, List<ActorSpec> specs, Map<Integer, List<DispatchSpec>> newOutputs) {
    Map<Integer, String> actorNodes = new TreeMap<>();
    for (ActorSpec s : specs) {
      s.upstreamActors().values().forEach(ids -> ids.forEach(id -> actorNodes.put(id, nodeOf(id))));
      s.dispatches()
          .forEach(d -> d.downstreamActors().forEach(id -> actorNodes.put(id, nodeOf(id))));
      actorNodes.put(s.actorId(), node);
    }
    newOutputs.forEach(
        (up, ds) -> {
          actorNodes.put(up, node);
          ds.forEach(d -> d.downstreamActors().forEach(id -> actorNodes.put(id, nodeOf(id))));
        });
    return new NodeBuild(node, specs, newOutputs, actorNodes);
  }

  private String nodeOf(int actorId) {
    Actor a = actors.get(actorId);
    Checks.checkState(a != null, "actor %s is in no fragment graph", actorId);
    return a.node();
  }

  /**
   * The spec of actor {@code a}. With {@code onlyJob} set, dispatchers go only to fragments of that
   * job (the other jobs' outputs of a new job do not exist yet); null means every reader.
   */
  private ActorSpec spec(Actor a, Integer onlyJob) {
    Fragment f = fragments.get(a.fragmentId());
    StreamPlanNode plan =
        withUpstreamTables(
            withSplitCount(codec.decode(f.body()), actorsOf.get(a.fragmentId()).size()));
    Map<Integer, List<Integer>> ups = new LinkedHashMap<>();
    for (Edge e : f.upstreams()) {
      List<Integer> ids = new ArrayList<>();
      for (int id : a.upstreamActorIds()) {
        Actor up = actors.get(id);
        if (up != null && up.fragmentId() == e.upstreamFragmentId()) {
          ids.add(id);
        }
      }
      if (ids.isEmpty() && e.kind() != DispatcherKind.NO_SHUFFLE) {
        actorsOf.getOrDefault(e.upstreamFragmentId(), List.of()).forEach(u -> ids.add(u.actorId()));
      }
      ups.put(e.upstreamFragmentId(), ids);
    }
    List<DispatchSpec> dispatches = new ArrayList<>();
    int ownJob = jobOf(a.fragmentId());
    for (Downstream d : downstreams.getOrDefault(a.fragmentId(), List.of())) {
      int readerJob = jobOf(d.fragment().fragmentId());
      if (onlyJob == null || readerJob == ownJob) {
        dispatches.add(dispatch(a, d));
      }
    }
    BitSet vnodes = BitSet.valueOf(a.vnodes().toBytes());
    return new ActorSpec(
        a.actorId(), a.fragmentId(), plan, vnodes, ups, dispatches, splitsOf(a, plan), ownJob);
  }

  private int jobOf(int fragmentId) {
    Integer job = jobOfFragment.get(fragmentId);
    Checks.checkState(job != null, "fragment %s is in no job", fragmentId);
    return job;
  }

  /** How actor {@code up} sends to the actors of downstream fragment {@code d}. */
  private DispatchSpec dispatch(Actor up, Downstream d) {
    List<Actor> down = actorsOf.getOrDefault(d.fragment().fragmentId(), List.of());
    DispatcherKind kind = d.edge().kind();
    if (kind == DispatcherKind.NO_SHUFFLE) {
      for (Actor x : down) {
        if (x.upstreamActorIds().contains(up.actorId())) {
          return new DispatchSpec(kind, List.of(), List.of(x.actorId()), List.of());
        }
      }
      throw new IllegalStateException(
          "no-shuffle: no actor of fragment "
              + d.fragment().fragmentId()
              + " reads actor "
              + up.actorId());
    }
    List<Integer> ids = down.stream().map(Actor::actorId).toList();
    if (kind != DispatcherKind.HASH) {
      return new DispatchSpec(kind, d.edge().distKeys(), ids, List.of());
    }
    Integer[] owners = new Integer[VirtualNode.COUNT];
    for (int i = 0; i < down.size(); i++) {
      for (int v = 0; v < VirtualNode.COUNT; v++) {
        if (down.get(i).vnodes().contains(v)) {
          owners[v] = i;
        }
      }
    }
    for (int v = 0; v < VirtualNode.COUNT; v++) {
      Checks.checkState(
          owners[v] != null, "fragment %s: vnode %s has no owner", d.fragment().fragmentId(), v);
    }
    return new DispatchSpec(kind, d.edge().distKeys(), ids, List.of(owners));
  }

  /**
   * The splits of a source actor: actor k of P reads the connector's splits {@code j} with {@code j
   * % P == k}. A source whose options name no split count gets one split per actor (the plan is
   * rewritten to say so), so every actor reads.
   */
  private List<String> splitsOf(Actor a, StreamPlanNode plan) {
    StreamNode.Source src = findSource(plan);
    List<Actor> peers = actorsOf.get(a.fragmentId());
    int k = peers.indexOf(a);
    int p = peers.size();
    if (src == null) {
      // a shared source's backfill actor k reads the partitions of its paired source actor k
      return hasSourceBackfill(plan) ? List.of("kafka-shard-" + k + "-of-" + p) : List.of();
    }
    if (src.connector() == SourceConnector.KAFKA) {
      // the actor finds its partitions itself (p % P == k), as the topic may grow while it runs
      return List.of("kafka-shard-" + k + "-of-" + p);
    }
    String prefix = src.connector() == SourceConnector.NEXMARK ? "nexmark" : "datagen";
    int n = Integer.parseInt(src.properties().getOrDefault(prefix + ".split.num", "1"));
    List<String> out = new ArrayList<>();
    for (int j = k; j < n; j += p) {
      out.add(splitId(src, j, n));
    }
    return out;
  }

  private static String splitId(StreamNode.Source src, int j, int n) {
    if (src.connector() == SourceConnector.NEXMARK) {
      String table = src.properties().getOrDefault("nexmark.table.type", "bid").toLowerCase();
      return "nexmark-" + table + "-" + j + "-of-" + n;
    }
    return "datagen-" + j + "-of-" + n;
  }

  /** {@code plan} with every source's split count defaulted to {@code parallelism}. */
  static StreamPlanNode withSplitCount(StreamPlanNode n, int parallelism) {
    List<StreamPlanNode> inputs = new ArrayList<>();
    for (StreamPlanNode in : n.inputs()) {
      inputs.add(withSplitCount(in, parallelism));
    }
    StreamNode body = n.node();
    if (body instanceof StreamNode.Source s && s.connector() != SourceConnector.KAFKA) {
      String key =
          (s.connector() == SourceConnector.NEXMARK ? "nexmark" : "datagen") + ".split.num";
      if (!s.properties().containsKey(key)) {
        Map<String, String> props = new TreeMap<>(s.properties());
        props.put(key, Integer.toString(parallelism));
        body = new StreamNode.Source(s.connector(), props, s.schema(), s.stateTable());
      }
    }
    return new StreamPlanNode(n.operatorId(), body, inputs, n.outputSchema());
  }

  /** {@code n} with every {@code StreamScan} carrying its upstream table's layout. */
  private StreamPlanNode withUpstreamTables(StreamPlanNode n) {
    List<StreamPlanNode> inputs = new ArrayList<>();
    for (StreamPlanNode in : n.inputs()) {
      inputs.add(withUpstreamTables(in));
    }
    StreamNode body = n.node();
    if (body instanceof StreamNode.StreamScan s && s.upstreamTable() == null) {
      body = s.withUpstreamTable(catalog.tableDesc(codec, s.upstreamTableId()));
    }
    return new StreamPlanNode(n.operatorId(), body, inputs, n.outputSchema());
  }

  private static boolean hasSourceBackfill(StreamPlanNode n) {
    return n.node() instanceof dev.tideway.common.plan.SourceBackfillNode
        || n.inputs().stream().anyMatch(ActorPlans::hasSourceBackfill);
  }

  private static StreamNode.Source findSource(StreamPlanNode n) {
    if (n.node() instanceof StreamNode.Source s) {
      return s;
    }
    for (StreamPlanNode in : n.inputs()) {
      StreamNode.Source s = findSource(in);
      if (s != null) {
        return s;
      }
    }
    return null;
  }

  private static List<Actor> sortedActors(java.util.Collection<Actor> xs) {
    return xs.stream().sorted((x, y) -> Integer.compare(x.actorId(), y.actorId())).toList();
  }

  private static List<String> union(java.util.Set<String> a, java.util.Set<String> b) {
    java.util.TreeSet<String> s = new java.util.TreeSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }
}
