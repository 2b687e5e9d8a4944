package dev.tideway.meta.catalog;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.meta.fragment.IdAllocator;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlCommand.CancelJob;
import dev.tideway.protocol.meta.DdlCommand.CreateDatabase;
import dev.tideway.protocol.meta.DdlCommand.CreateSchema;
import dev.tideway.protocol.meta.DdlCommand.CreateStreamingJob;
import dev.tideway.protocol.meta.DdlCommand.Drop;
import dev.tideway.protocol.meta.DdlCommand.FinishJob;
import dev.tideway.protocol.meta.DdlCommand.ReserveIds;
import dev.tideway.protocol.meta.DdlCommand.SaveProgress;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides every DDL command purely: {@code (command, state, cluster view) → DdlDecision}. No I/O,
 * no clock, no randomness; the shell ({@link DdlService}) persists the decision and replays it.
 * Streaming-job creation lives in {@link JobPlanner}.
 *
 * <p>Invariants: a rejected command changes nothing; every id handed out is below the persisted
 * {@code NextId} afterwards; every object of a job carries the job's id, so removing a job removes
 * exactly its objects.
 */
public final class CatalogCore {
  public static final String DEFAULT_DATABASE = CatalogState.DEFAULT_DATABASE;
  public static final String DEFAULT_SCHEMA = CatalogState.DEFAULT_SCHEMA;

  private final PlanCodec codec;

  public CatalogCore(PlanCodec codec) {
    this.codec = codec;
  }

  /** Creates the default database and schema on a fresh cluster (no changes otherwise). */
  public List<CatalogChange> bootstrap(CatalogState state) {
    if (state.objects().values().stream().anyMatch(o -> o.kind() == ObjectKind.DATABASE)) {
      return List.of();
    }
    IdAllocator ids = new IdAllocator(state.nextId().next());
    int db = ids.allocate();
    int schema = ids.allocate();
    return List.of(
        new CatalogChange.PutObject(simple(db, ObjectKind.DATABASE, DEFAULT_DATABASE, 0)),
        new CatalogChange.PutObject(simple(schema, ObjectKind.SCHEMA, DEFAULT_SCHEMA, db)),
        new CatalogChange.PutNextId(new NextId(ids.next())));
  }

  public DdlDecision decide(DdlCommand cmd, CatalogState state, ClusterView view) {
    if (cmd instanceof ReserveIds r) {
      int from = state.nextId().next();
      return new DdlDecision(
          List.of(new CatalogChange.PutNextId(new NextId(from + r.count()))),
          new DdlReply.IdsReserved(from, from + r.count()));
    } else if (cmd instanceof CreateDatabase c) {
      return createNamed(state, ObjectKind.DATABASE, c.name(), 0);
    } else if (cmd instanceof CreateSchema c) {
      if (!exists(state, c.databaseId(), ObjectKind.DATABASE)) {
        return DdlDecision.reject(Reason.NOT_FOUND, "database %s does not exist", c.databaseId());
      }
      return createNamed(state, ObjectKind.SCHEMA, c.name(), c.databaseId());
    } else if (cmd instanceof DdlCommand.CreateSource c) {
      return createSource(c, state);
    } else if (cmd instanceof CreateStreamingJob c) {
      return new JobPlanner(codec).create(c, state, view);
    } else if (cmd instanceof Drop d) {
      return drop(d, state);
    } else if (cmd instanceof CancelJob c) {
      return cancel(c, state);
    } else if (cmd instanceof DdlCommand.SetBackfillRateLimit r) {
      return BackfillRateLimits.decide(r, state, codec);
    } else if (cmd instanceof DdlCommand.RecordRecovery r) {
      return recordRecovery(r, state);
    } else if (cmd instanceof DdlCommand.RecordBackfill b) {
      return recordBackfill(b, state);
    } else if (cmd instanceof DdlCommand.RelocateActors) {
      return relocate(state, view);
    } else if (cmd instanceof DdlCommand.FailJob f) {
      JobRecord job = state.jobs().get(f.jobId());
      if (job == null || job.status() != JobStatus.CREATING) {
        return DdlDecision.reject(
            Reason.WRONG_STATUS, "job %s is not CREATING; not failing it", f.jobId());
      }
      return removeJob(state, f.jobId());
    } else if (cmd instanceof DdlCommand.CreateUser u) {
      return Users.create(u, state);
    } else if (cmd instanceof DdlCommand.AlterUser u) {
      return Users.alter(u, state);
    } else if (cmd instanceof DdlCommand.PauseJob p) {
      return pause(p, state);
    } else if (cmd instanceof DdlCommand.CommitEpoch c) {
      return commitEpoch(c, state);
    } else if (cmd instanceof FinishJob f) {
      return finish(f, state);
    } else if (cmd instanceof SaveProgress p) {
      JobRecord job = state.jobs().get(p.jobId());
      if (job == null) {
        return DdlDecision.reject(Reason.NOT_FOUND, "job %s does not exist", p.jobId());
      }
      JobRecord next = job.withProgress(p.progressSnapshot());
      return new DdlDecision(
          List.of(new CatalogChange.PutJob(next)), new DdlReply.JobUpdated(next));
    }
    throw new IllegalStateException("unknown DDL command " + cmd);
  }

  private static DdlDecision recordBackfill(DdlCommand.RecordBackfill b, CatalogState state) {
    BackfillHistory next = state.backfills().append(b.entry());
    return new DdlDecision(
        List.of(new CatalogChange.PutBackfillHistory(next)),
        new DdlReply.BackfillRecorded(b.entry().jobId()));
  }

  /** Appends the generation; a retried reset of the same generation and base changes nothing. */
  private static DdlDecision recordRecovery(DdlCommand.RecordRecovery r, CatalogState state) {
    List<RecoveryLog.Entry> log = state.recoveries().entries();
    RecoveryLog.Entry last = log.isEmpty() ? null : log.get(log.size() - 1);
    if (last != null && last.generation() == r.generation()) {
      if (last.baseEpoch() == r.baseEpoch()) {
        return new DdlDecision(List.of(), new DdlReply.RecoveryRecorded(r.generation()));
      }
      return DdlDecision.reject(
          Reason.WRONG_STATUS,
          "generation %s is logged from epoch %s, not %s",
          r.generation(),
          last.baseEpoch(),
          r.baseEpoch());
    }
    if (last != null && last.generation() > r.generation()) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS,
          "generation %s is below the last logged %s",
          r.generation(),
          last.generation());
    }
    return new DdlDecision(
        List.of(
            new CatalogChange.PutRecoveryLog(
                state.recoveries().append(r.generation(), r.baseEpoch()))),
        new DdlReply.RecoveryRecorded(r.generation()));
  }

  private static DdlDecision createNamed(
      CatalogState state, ObjectKind kind, String name, int parentId) {
    if (state.find(parentId, name, kind).isPresent()) {
      return DdlDecision.reject(Reason.ALREADY_EXISTS, "%s '%s' already exists", kind, name);
    }
    int id = state.nextId().next();
    return new DdlDecision(
        List.of(
            new CatalogChange.PutObject(simple(id, kind, name, parentId)),
            new CatalogChange.PutNextId(new NextId(id + 1))),
        new DdlReply.ObjectCreated(id));
  }

  private static DdlDecision createSource(DdlCommand.CreateSource c, CatalogState state) {
    if (!exists(state, c.schemaId(), ObjectKind.SCHEMA)) {
      return DdlDecision.reject(Reason.NOT_FOUND, "schema %s does not exist", c.schemaId());
    }
    ObjectKind[] relationKinds = {
      ObjectKind.TABLE, ObjectKind.SOURCE, ObjectKind.MATERIALIZED_VIEW, ObjectKind.SINK
    };
    if (state.find(c.schemaId(), c.name(), relationKinds).isPresent()) {
      return DdlDecision.reject(Reason.ALREADY_EXISTS, "relation '%s' already exists", c.name());
    }
    for (int k : c.pk()) {
      if (k < 0 || k >= c.columns().size()) {
        return DdlDecision.reject(
            Reason.INVALID,
            "source '%s': pk column %s out of [0, %s)",
            c.name(),
            k,
            c.columns().size());
      }
    }
    int id = state.nextId().next();
    CatalogObject source =
        new CatalogObject(
            id,
            ObjectKind.SOURCE,
            c.name(),
            c.schemaId(),
            0,
            c.definition(),
            c.columns(),
            c.pk(),
            c.properties(),
            List.of(),
            List.of());
    return new DdlDecision(
        List.of(
            new CatalogChange.PutObject(source), new CatalogChange.PutNextId(new NextId(id + 1))),
        new DdlReply.ObjectCreated(id));
  }

  /**
   * Moves the actors of every node not among {@code view}'s workers to the least loaded live worker
   * (actors per core), one lost node at a time, in address order.
   */
  private static DdlDecision relocate(CatalogState state, ClusterView view) {
    java.util.Map<String, Integer> load = new java.util.TreeMap<>();
    java.util.Map<String, Integer> cores = new java.util.TreeMap<>();
    view.workers()
        .forEach(
            w -> {
              load.put(w.address(), 0);
              cores.put(w.address(), Math.max(1, w.cores()));
            });
    java.util.Map<String, Integer> lost = new java.util.TreeMap<>();
    for (FragmentGraph g : state.fragments().values()) {
      for (FragmentGraph.Actor a : g.actors()) {
        if (load.containsKey(a.node())) {
          load.merge(a.node(), 1, Integer::sum);
        } else {
          lost.merge(a.node(), 1, Integer::sum);
        }
      }
    }
    if (lost.isEmpty()) {
      return new DdlDecision(List.of(), new DdlReply.ActorsRelocated(java.util.Map.of()));
    }
    if (load.isEmpty()) {
      return DdlDecision.reject(
          Reason.NO_COMPUTE_NODES,
          "no compute node is registered; cannot move the actors of %s",
          lost.keySet());
    }
    java.util.Map<String, String> moves = new java.util.TreeMap<>();
    lost.forEach(
        (node, n) -> {
          String to =
              load.keySet().stream()
                  .min(
                      java.util.Comparator.comparingDouble(
                          w -> load.get(w) / (double) cores.get(w)))
                  .orElseThrow();
          moves.put(node, to);
          load.merge(to, n, Integer::sum);
        });
    List<CatalogChange> changes = new ArrayList<>();
    for (FragmentGraph g : state.fragments().values()) {
      if (g.actors().stream().anyMatch(a -> moves.containsKey(a.node()))) {
        List<FragmentGraph.Actor> actors =
            g.actors().stream()
                .map(
                    a ->
                        moves.containsKey(a.node())
                            ? new FragmentGraph.Actor(
                                a.actorId(),
                                a.fragmentId(),
                                moves.get(a.node()),
                                a.vnodes(),
                                a.upstreamActorIds())
                            : a)
                .toList();
        changes.add(
            new CatalogChange.PutFragments(
                new FragmentGraph(g.jobId(), g.planCodec(), g.fragments(), actors)));
      }
    }
    return new DdlDecision(changes, new DdlReply.ActorsRelocated(moves));
  }

  /** The names of the relations (of other jobs) that declare they read {@code id}. */
  static List<String> readersOf(CatalogState state, int id, int ownJob) {
    List<String> out = new ArrayList<>();
    for (CatalogObject o : state.objects().values()) {
      if (o.dependsOn().contains(id) && (ownJob == 0 || o.jobId() != ownJob)) {
        out.add(o.name());
      }
    }
    return out;
  }

  private static DdlDecision drop(Drop d, CatalogState state) {
    Optional<CatalogObject> obj = state.find(d.schemaId(), d.name(), d.kind());
    if (obj.isEmpty()) {
      return DdlDecision.reject(Reason.NOT_FOUND, "%s '%s' does not exist", d.kind(), d.name());
    }
    List<String> readers = readersOf(state, obj.get().id(), obj.get().jobId());
    if (!readers.isEmpty()) {
      return DdlDecision.reject(
          Reason.HAS_DEPENDENTS,
          "cannot drop %s '%s': %s read it; drop them first",
          d.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
          d.name(),
          readers);
    }
    if (obj.get().catalogOnly()) {
      return new DdlDecision(
          List.of(new CatalogChange.DeleteObject(obj.get().id())),
          new DdlReply.JobRemoved(0, List.of(), List.of()));
    }
    int jobId = obj.get().jobId();
    List<Integer> dependents = dependentJobs(state, jobId);
    if (!dependents.isEmpty()) {
      return DdlDecision.reject(
          Reason.HAS_DEPENDENTS, "cannot drop '%s': jobs %s read it", d.name(), dependents);
    }
    return removeJob(state, jobId);
  }

  private static DdlDecision cancel(CancelJob c, CatalogState state) {
    JobRecord job = state.jobs().get(c.jobId());
    if (job == null) {
      return DdlDecision.reject(Reason.NOT_FOUND, "job %s does not exist", c.jobId());
    }
    if (job.status() != JobStatus.CREATING) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS,
          "job %s is %s; only CREATING jobs can be cancelled",
          c.jobId(),
          job.status());
    }
    List<Integer> dependents = dependentJobs(state, c.jobId());
    if (!dependents.isEmpty()) {
      return DdlDecision.reject(
          Reason.HAS_DEPENDENTS, "job %s is read by jobs %s", c.jobId(), dependents);
    }
    return removeJob(state, c.jobId());
  }

  private static DdlDecision finish(FinishJob f, CatalogState state) {
    JobRecord job = state.jobs().get(f.jobId());
    if (job == null) {
      return DdlDecision.reject(Reason.NOT_FOUND, "job %s does not exist", f.jobId());
    }
    if (job.status() != JobStatus.CREATING) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS, "job %s is %s, not CREATING", f.jobId(), job.status());
    }
    JobRecord next = job.withStatus(JobStatus.CREATED).withProgress(f.progressSnapshot());
    return new DdlDecision(List.of(new CatalogChange.PutJob(next)), new DdlReply.JobUpdated(next));
  }

  /**
   * One checkpoint's metadata: the version pointer first in the list (the multi-op is atomic, so no
   * reader sees progress or a CREATED job without the version it was computed against). Jobs
   * dropped meanwhile are skipped.
   */
  private static DdlDecision commitEpoch(DdlCommand.CommitEpoch c, CatalogState state) {
    List<CatalogChange> changes = new ArrayList<>();
    changes.add(new CatalogChange.PutVersionPointer(c.pointer()));
    List<Integer> created = new ArrayList<>();
    c.progressByJob()
        .forEach(
            (id, bytes) -> {
              JobRecord job = state.jobs().get(id);
              if (job != null && job.status() == JobStatus.CREATING) {
                boolean done = c.finishedJobIds().contains(id);
                JobRecord next = job.withProgress(bytes);
                changes.add(
                    new CatalogChange.PutJob(done ? next.withStatus(JobStatus.CREATED) : next));
                if (done) {
                  created.add(id);
                }
              }
            });
    for (int id : c.finishedJobIds()) {
      JobRecord job = state.jobs().get(id);
      if (job != null && job.status() == JobStatus.CREATING && !c.progressByJob().containsKey(id)) {
        changes.add(new CatalogChange.PutJob(job.withStatus(JobStatus.CREATED)));
        created.add(id);
      }
    }
    return new DdlDecision(
        changes, new DdlReply.EpochCommitted(c.pointer().maxCommittedEpoch(), created));
  }

  /** Jobs other than {@code jobId} whose fragments read one of its fragments. */
  static List<Integer> dependentJobs(CatalogState state, int jobId) {
    FragmentGraph own = state.fragments().get(jobId);
    if (own == null) {
      return List.of();
    }
    List<Integer> ownFragments =
        own.fragments().stream().map(FragmentGraph.Fragment::fragmentId).toList();
    List<Integer> out = new ArrayList<>();
    for (FragmentGraph g : state.fragments().values()) {
      if (g.jobId() != jobId
          && g.fragments().stream()
              .flatMap(f -> f.upstreams().stream())
              .anyMatch(e -> e.crossJob() && ownFragments.contains(e.upstreamFragmentId()))) {
        out.add(g.jobId());
      }
    }
    return out;
  }

  /**
   * Pauses a CREATED job and every CREATED job downstream of it (they would get no more input);
   * creating jobs downstream are removed (their backfill could never finish). A job already paused
   * is left as it is.
   */
  private static DdlDecision pause(DdlCommand.PauseJob p, CatalogState state) {
    JobRecord job = state.jobs().get(p.jobId());
    if (job == null || !job.status().readable()) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS, "job %s is not CREATED; not pausing it", p.jobId());
    }
    List<CatalogChange> changes = new ArrayList<>();
    java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(p.jobId()));
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    while (!todo.isEmpty()) {
      int id = todo.poll();
      JobRecord j = state.jobs().get(id);
      if (!seen.add(id) || j == null) {
        continue;
      }
      if (j.status() == JobStatus.CREATED) {
        String why =
            id == p.jobId() ? p.reason() : "upstream job " + p.jobId() + " paused: " + p.reason();
        changes.add(new CatalogChange.PutJob(j.paused(why)));
      } else if (j.status() != JobStatus.PAUSED) {
        changes.addAll(removeJob(state, id).changes());
        continue;
      }
      todo.addAll(dependentJobs(state, id));
    }
    return new DdlDecision(changes, new DdlReply.JobUpdated(job.paused(p.reason())));
  }

  private static DdlDecision removeJob(CatalogState state, int jobId) {
    List<CatalogChange> changes = new ArrayList<>();
    List<Integer> tables = new ArrayList<>();
    for (CatalogObject o : state.objects().values()) {
      if (o.jobId() == jobId) {
        changes.add(new CatalogChange.DeleteObject(o.id()));
        if (o.kind() != ObjectKind.SOURCE) {
          tables.add(o.id());
        }
      }
    }
    List<Integer> actors = new ArrayList<>();
    FragmentGraph g = state.fragments().get(jobId);
    if (g != null) {
      g.actors().forEach(a -> actors.add(a.actorId()));
      changes.add(new CatalogChange.DeleteFragments(jobId));
    }
    changes.add(new CatalogChange.DeleteJob(jobId));
    return new DdlDecision(changes, new DdlReply.JobRemoved(jobId, actors, tables));
  }

  static boolean exists(CatalogState state, int id, ObjectKind kind) {
    CatalogObject o = state.objects().get(id);
    return o != null && o.kind() == kind;
  }

  static CatalogObject simple(int id, ObjectKind kind, String name, int parentId) {
    return new CatalogObject(id, kind, name, parentId, 0, "", List.of(), List.of());
  }

  static CatalogObject relation(
      int id, ObjectKind kind, String name, int schemaId, int jobId, String def, TableDesc t) {
    return new CatalogObject(id, kind, name, schemaId, jobId, def, t.columns(), t.pkIndices())
        .withDistributionKey(t.distributionKey());
  }

  static List<ColumnDesc> columnsOf(StreamPlanNode n) {
    List<ColumnDesc> cols = new ArrayList<>();
    for (int i = 0; i < n.outputSchema().size(); i++) {
      var f = n.outputSchema().fields().get(i);
      cols.add(new ColumnDesc(i, f.name(), f.type()));
    }
    return cols;
  }

  static Optional<StreamPlanNode> findBody(StreamPlanNode n, Class<? extends StreamNode> kind) {
    if (kind.isInstance(n.node())) {
      return Optional.of(n);
    }
    for (StreamPlanNode in : n.inputs()) {
      Optional<StreamPlanNode> f = findBody(in, kind);
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }
}
