package dev.tideway.meta.catalog;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.meta.fragment.Fragmenter;
import dev.tideway.meta.fragment.IdAllocator;
import dev.tideway.meta.fragment.StreamFragment;
import dev.tideway.meta.progress.JobSpecs;
import dev.tideway.meta.schedule.ActorScheduler;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.meta.DdlCommand.CreateStreamingJob;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides {@code CREATE TABLE | SOURCE | MATERIALIZED VIEW}, purely: validate names and reserved
 * table ids, fragment the plan, wire scans of existing tables as cross-job no-shuffle edges,
 * schedule actors, and emit the relation, its internal tables, the job (status CREATING, so it is
 * visible at once) and the fragment graph as one set of changes.
 *
 * <p>Ids: the relation of a table or MV is its {@code Materialize} table (id reserved by the
 * frontend); a source's relation id is allocated here. The job id is the relation id.
 */
final class JobPlanner {
  private final PlanCodec codec;

  JobPlanner(PlanCodec codec) {
    this.codec = codec;
  }

  DdlDecision create(CreateStreamingJob c, CatalogState state, ClusterView view) {
    if (!CatalogCore.exists(state, c.schemaId(), ObjectKind.SCHEMA)) {
      return DdlDecision.reject(Reason.NOT_FOUND, "schema %s does not exist", c.schemaId());
    }
    ObjectKind[] relationKinds = {
      ObjectKind.TABLE, ObjectKind.SOURCE, ObjectKind.MATERIALIZED_VIEW, ObjectKind.SINK
    };
    if (state.find(c.schemaId(), c.name(), relationKinds).isPresent()) {
      return DdlDecision.reject(Reason.ALREADY_EXISTS, "relation '%s' already exists", c.name());
    }
    for (int dep : c.dependsOn()) {
      CatalogObject o = state.objects().get(dep);
      if (o == null || !o.kind().streaming()) {
        return DdlDecision.reject(
            Reason.NOT_FOUND, "'%s' reads relation %s, which does not exist", c.name(), dep);
      }
    }
    List<TableDesc> tables = Fragmenter.stateTables(c.plan());
    Optional<String> bad = checkReservedIds(tables, state);
    if (bad.isPresent()) {
      return DdlDecision.reject(Reason.INVALID, "%s", bad.get());
    }
    if (view.workers().isEmpty()) {
      return DdlDecision.reject(
          Reason.NO_COMPUTE_NODES, "no compute node is registered; cannot place '%s'", c.name());
    }
    IdAllocator ids = new IdAllocator(state.nextId().next());
    Optional<CatalogObject> relation = relationOf(c, ids);
    if (relation.isEmpty()) {
      return DdlDecision.reject(
          Reason.INVALID,
          "plan of %s '%s' has no %s",
          c.kind(),
          c.name(),
          c.kind() == ObjectKind.SOURCE ? "Source" : "Materialize at its root");
    }
    int jobId = relation.get().id();
    List<StreamFragment> fragments = Fragmenter.fragment(c.plan(), ids);
    Optional<List<StreamFragment>> wired = wireScans(fragments, state);
    if (wired.isEmpty()) {
      return DdlDecision.reject(
          Reason.NOT_FOUND, "'%s' reads a table that does not exist", c.name());
    }
    List<Integer> reads = new ArrayList<>(c.dependsOn());
    fragments.forEach(f -> reads.addAll(f.upstreamTableIds()));
    for (int dep : reads) {
      CatalogObject o = state.objects().get(dep);
      JobRecord upstream = o == null ? null : state.jobs().get(o.jobId());
      if (upstream != null && upstream.status() == JobStatus.PAUSED) {
        return DdlDecision.reject(
            Reason.WRONG_STATUS,
            "'%s' reads '%s', which is paused (%s); drop and re-create it first",
            c.name(),
            o.name(),
            upstream.error());
      }
    }
    Map<Integer, List<Actor>> existing = new HashMap<>();
    state
        .fragments()
        .values()
        .forEach(
            g ->
                g.fragments()
                    .forEach(f -> existing.put(f.fragmentId(), g.actorsOf(f.fragmentId()))));
    List<Actor> actors =
        ActorScheduler.schedule(
            wired.get(), existing, view.workers(), state.params().parallelism(), ids);
    return accept(c, state, view, relation.get(), tables, wired.get(), actors, ids);
  }

  private DdlDecision accept(
      CreateStreamingJob c,
      CatalogState state,
      ClusterView view,
      CatalogObject relation,
      List<TableDesc> tables,
      List<StreamFragment> fragments,
      List<Actor> actors,
      IdAllocator ids) {
    int jobId = relation.id();
    List<CatalogChange> changes = new ArrayList<>();
    changes.add(
        new CatalogChange.PutObject(
            relation.withDependsOn(c.dependsOn()).withProperties(c.properties())));
    List<Integer> objectIds = new ArrayList<>(List.of(jobId));
    for (TableDesc t : tables) {
      if (t.tableId() != jobId) {
        changes.add(
            new CatalogChange.PutObject(
                new CatalogObject(
                        t.tableId(),
                        ObjectKind.INTERNAL_TABLE,
                        t.name(),
                        c.schemaId(),
                        jobId,
                        "",
                        t.columns(),
                        t.pkIndices())
                    .withDistributionKey(t.distributionKey())));
        objectIds.add(t.tableId());
      }
    }
    byte[] progress =
        JobSpecs.initialSnapshot(
            JobSpecs.of(jobId, fragments, actors), JobSpecs.rateLimits(fragments, actors));
    JobRecord job =
        new JobRecord(
            jobId,
            c.definition(),
            JobStatus.CREATING,
            c.createType(),
            view.nowMs(),
            objectIds,
            progress);
    List<FragmentGraph.Fragment> persisted =
        fragments.stream()
            .map(
                f ->
                    new FragmentGraph.Fragment(
                        f.fragmentId(),
                        f.distribution(),
                        f.upstreams(),
                        f.stateTableIds(),
                        codec.encode(f.root())))
            .toList();
    FragmentGraph graph = new FragmentGraph(jobId, codec.name(), persisted, actors);
    changes.add(new CatalogChange.PutJob(job));
    changes.add(new CatalogChange.PutFragments(graph));
    changes.add(
        new CatalogChange.PutNextId(new NextId(Math.max(ids.next(), state.nextId().next()))));
    return new DdlDecision(changes, new DdlReply.JobAccepted(job, graph));
  }

  /** Every state table id must be reserved (below NextId), unused, and used once in the plan. */
  private static Optional<String> checkReservedIds(List<TableDesc> tables, CatalogState state) {
    Set<Integer> seen = new HashSet<>();
    for (TableDesc t : tables) {
      if (t.tableId() >= state.nextId().next()) {
        return Optional.of("table id " + t.tableId() + " ('" + t.name() + "') was not reserved");
      }
      if (state.objects().containsKey(t.tableId()) || !seen.add(t.tableId())) {
        return Optional.of("table id " + t.tableId() + " ('" + t.name() + "') is already in use");
      }
    }
    return Optional.empty();
  }

  private static Optional<CatalogObject> relationOf(CreateStreamingJob c, IdAllocator ids) {
    if (c.kind() == ObjectKind.SOURCE) {
      return CatalogCore.findBody(c.plan(), StreamNode.Source.class)
          .map(
              n ->
                  new CatalogObject(
                      ids.allocate(),
                      ObjectKind.SOURCE,
                      c.name(),
                      c.schemaId(),
                      0,
                      c.definition(),
                      CatalogCore.columnsOf(n),
                      List.of()))
          .map(
              o ->
                  new CatalogObject(
                      o.id(),
                      o.kind(),
                      o.name(),
                      o.parentId(),
                      o.id(),
                      o.definition(),
                      o.columns(),
                      o.pk()));
    }
    StreamPlanNode root = c.plan();
    TableDesc t;
    if (root.node() instanceof StreamNode.Materialize m) {
      t = m.table();
    } else if (root.node() instanceof dev.tideway.common.plan.SinkNode k) {
      t = k.logStore(); // a sink's catalog id is its log store's
    } else {
      return Optional.empty();
    }
    return Optional.of(
        CatalogCore.relation(
            t.tableId(), c.kind(), c.name(), c.schemaId(), t.tableId(), c.definition(), t));
  }

  /**
   * Adds a cross-job NO_SHUFFLE edge from the fragment that materializes each scanned table (or a
   * shared source's fragment), so the scan's actors are co-located with the upstream's and paired
   * with them one to one. Empty if a scanned table is unknown.
   */
  private static Optional<List<StreamFragment>> wireScans(
      List<StreamFragment> fragments, CatalogState state) {
    List<StreamFragment> out = new ArrayList<>();
    for (StreamFragment f : fragments) {
      List<Edge> edges = new ArrayList<>(f.upstreams());
      for (int table : f.upstreamTableIds()) {
        Optional<Integer> up = materializingFragment(state, table);
        if (up.isEmpty()) {
          return Optional.empty();
        }
        edges.add(new Edge(up.get(), DispatcherKind.NO_SHUFFLE, List.of(), true));
      }
      out.add(f.withUpstreams(edges));
    }
    return Optional.of(out);
  }

  private static Optional<Integer> materializingFragment(CatalogState state, int tableId) {
    CatalogObject o = state.objects().get(tableId);
    if (o == null
        || (o.kind() != ObjectKind.TABLE
            && o.kind() != ObjectKind.MATERIALIZED_VIEW
            && o.kind() != ObjectKind.SOURCE)) {
      return Optional.empty();
    }
    FragmentGraph g = state.fragments().get(o.jobId());
    if (g == null) {
      return Optional.empty();
    }
    if (o.kind() == ObjectKind.SOURCE) {
      // a shared source's job is its one source fragment
      return g.fragments().size() == 1
          ? Optional.of(g.fragments().get(0).fragmentId())
          : Optional.empty();
    }
    return g.fragments().stream()
        .filter(f -> f.stateTableIds().contains(tableId))
        .map(FragmentGraph.Fragment::fragmentId)
        .findFirst();
  }
}
