package dev.tideway.frontend.cluster;

import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.check.Checks;
import dev.tideway.common.check.Failures;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.meta.DdlCommand;
import dev.tideway.frontend.meta.DdlJob;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.meta.TableStats;
import dev.tideway.frontend.meta.Users;
import dev.tideway.frontend.meta.WriteAck;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.meta.DdlRejectedException;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The frontend's {@link MetaClient} over a meta leader in the same process: DDL goes to its {@link
 * DdlService} (persisted in ZooKeeper before it answers), relations come from its catalog, progress
 * from its barrier loop, table statistics from the committed storage version.
 *
 * <p>Thread-safe: the DDL service serialises every command on its owner thread.
 */
public final class ClusterMetaClient implements MetaClient {
  private static final long DDL_TIMEOUT_S = 60;

  private final MetaAccess meta;

  // the progress last shown per creating job (see shown)
  private final Map<Long, JobProgress> lastShown = new java.util.concurrent.ConcurrentHashMap<>();

  private final CatalogRelations relations;
  private final StateStore store;
  private final Clock clock;
  private final long progressIntervalMs;

  public ClusterMetaClient(
      MetaAccess meta,
      CatalogRelations relations,
      StateStore store,
      Clock clock,
      long progressIntervalMs) {
    this.meta = meta;
    this.relations = relations;
    this.store = store;
    this.clock = clock;
    this.progressIntervalMs = progressIntervalMs;
  }

  private final Users users = new CatalogUsers(this::state, this::call);

  @Override
  public Users users() {
    return users;
  }

  private CatalogState state() {
    return meta.catalog().orElseThrow(ClusterMetaClient::notReady);
  }

  private static PgException notReady() {
    return PgException.error(
        "57P03", "the meta service is not ready (no leader yet); retry shortly");
  }

  @Override
  public List<Relation> relations() {
    return relations.readable(state());
  }

  @Override // sinks are relations no query reads
  public List<Relation> sinks() {
    return relations.sinks(state());
  }

  @Override
  public int allocateId() {
    return call(new dev.tideway.protocol.meta.DdlCommand.ReserveIds(1));
  }

  @Override
  public List<Long> submit(DdlCommand command, ProgressListener listener)
      throws InterruptedException {
    if (command instanceof DdlCommand.Create c) {
      create(c, listener);
      return List.of();
    }
    if (command instanceof DdlCommand.Drop d) {
      drop(d);
      return List.of();
    }
    DdlCommand.CancelJobs c = (DdlCommand.CancelJobs) command;
    List<Long> cancelled = new ArrayList<>();
    for (long id : c.jobIds()) {
      JobRecord j = state().jobs().get((int) id);
      if (j != null && j.status() == JobStatus.CREATING) {
        call(new dev.tideway.protocol.meta.DdlCommand.CancelJob((int) id));
        cancelled.add(id);
      }
    }
    return cancelled;
  }

  private void create(DdlCommand.Create c, ProgressListener listener) throws InterruptedException {
    Relation r = c.relation();
    int schema = schemaId();
    if (r.kind() == RelationKind.SOURCE && r.plan().isEmpty()) {
      createSource(r, schema);
      return;
    }
    Checks.checkArgument(r.plan().isPresent(), "%s %s has no stream plan", r.kind(), r.name());
    ObjectKind kind = ObjectKind.valueOf(r.kind().name());
    boolean background = c.background() && kind == ObjectKind.MATERIALIZED_VIEW;
    int jobId =
        call(
            new dev.tideway.protocol.meta.DdlCommand.CreateStreamingJob(
                kind,
                schema,
                r.name(),
                r.definition(),
                withRateLimit(r.plan().get(), c.backfillRateLimit()),
                background ? CreateType.BACKGROUND : CreateType.FOREGROUND,
                r.dependsOn(),
                kind == ObjectKind.SOURCE ? r.properties() : CatalogRelations.hiddenProperty(r)));
    if (!background) {
      awaitCreated(jobId, listener);
      // A job without a backfill is marked created at the first commit after it was accepted,
      // which may precede the commit of its Add barrier: wait for two more commits so the actors
      // run (and take writes) when the statement returns.
      flush();
    }
  }

  /** {@code plan} with every scan limited to {@code rate} snapshot rows/s per actor, if given. */
  static StreamPlanNode withRateLimit(StreamPlanNode plan, OptionalLong rate) {
    if (rate.isEmpty()) {
      return plan;
    }
    List<StreamPlanNode> inputs = new ArrayList<>();
    plan.inputs().forEach(in -> inputs.add(withRateLimit(in, rate)));
    StreamNode body = plan.node();
    if (body instanceof StreamNode.StreamScan s) {
      body = s.withRateLimit(rate.getAsLong());
    } else if (body instanceof dev.tideway.common.plan.SourceBackfillNode s) {
      body = s.withRateLimit(rate.getAsLong());
    }
    return new StreamPlanNode(plan.operatorId(), body, inputs, plan.outputSchema());
  }

  private void createSource(Relation r, int schema) {
    call(
        new dev.tideway.protocol.meta.DdlCommand.CreateSource(
            schema,
            r.name(),
            r.definition(),
            r.table().columns(),
            r.table().pkIndices(),
            r.properties()));
  }

  private void awaitCreated(int jobId, ProgressListener listener) throws InterruptedException {
    CompletableFuture<Void> done = meta.awaitCreated(jobId);
    while (true) {
      try {
        done.get(progressIntervalMs, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException e) {
        jobs().stream().filter(j -> j.ddlId() == jobId).findFirst().ifPresent(listener::progress);
      } catch (ExecutionException e) {
        throw PgException.error(SqlState.QUERY_CANCELED, Failures.rootMessage(e));
      }
    }
  }

  /**
   * Drops a relation; with CASCADE first everything that reads it, transitively, dependents first
   * (a dependent still being created is cancelled instead).
   */
  private void drop(DdlCommand.Drop d) {
    CatalogState s = state();
    CatalogObject o = s.objects().get(d.relationId());
    if (o == null) {
      throw PgException.error(
          SqlState.UNDEFINED_TABLE, "relation " + d.relationId() + " does not exist");
    }
    if (d.cascade()) {
      List<Relation> all = relations.relations(s);
      java.util.LinkedHashSet<Integer> order = new java.util.LinkedHashSet<>();
      dependentsFirst(d.relationId(), all, order);
      order.remove(d.relationId());
      for (int id : order) {
        dropOne(s, s.objects().get(id));
      }
    }
    dropOne(s, o);
  }

  private static void dependentsFirst(
      int id, List<Relation> all, java.util.LinkedHashSet<Integer> out) {
    for (Relation r : all) {
      if (r.dependsOn().contains(id) && !out.contains(r.id())) {
        dependentsFirst(r.id(), all, out);
      }
    }
    out.add(id);
  }

  private void dropOne(CatalogState s, CatalogObject o) {
    if (o == null) {
      return;
    }
    JobRecord job = s.jobs().get(o.jobId());
    if (job != null && job.status() == JobStatus.CREATING) {
      call(new dev.tideway.protocol.meta.DdlCommand.CancelJob(job.jobId()));
      return;
    }
    call(new dev.tideway.protocol.meta.DdlCommand.Drop(o.kind(), o.parentId(), o.name()));
  }

  private int schemaId() {
    CatalogState s = state();
    CatalogObject db =
        s.find(0, CatalogState.DEFAULT_DATABASE, ObjectKind.DATABASE)
            .orElseThrow(() -> new IllegalStateException("no default database"));
    return s.find(db.id(), CatalogState.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
        .orElseThrow(() -> new IllegalStateException("no default schema"))
        .id();
  }

  /**
   * {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT}: waits until meta persisted the
   * rate and the barrier carrying it to the job's backfill actors committed; false when job {@code
   * jobId} is unknown or no longer creating (the frontend then names the view in its error).
   */
  @Override
  public boolean setBackfillRateLimit(long jobId, OptionalLong rowsPerSecond) {
    long rate = rowsPerSecond.orElse(StreamNode.StreamScan.UNLIMITED);
    if (rate < 0 && rate != StreamNode.StreamScan.UNLIMITED) {
      throw PgException.error(
          SqlState.INVALID_PARAMETER_VALUE,
          "backfill_rate_limit must be >= 0 or DEFAULT, got " + rate);
    }
    try {
      await(meta.setBackfillRateLimit(Math.toIntExact(jobId), rate));
      return true;
    } catch (DdlRejectedException rej) {
      if (rej.reason() == DdlReply.Rejected.Reason.NOT_FOUND
          || rej.reason() == DdlReply.Rejected.Reason.WRONG_STATUS) {
        return false;
      }
      // INVALID: the job reads no table, so it has no backfill to throttle
      String state =
          rej.reason() == DdlReply.Rejected.Reason.INVALID ? "55000" : sqlState(rej.reason());
      throw PgException.error(state, rej.getMessage());
    }
  }

  /** Submits a meta DDL command and waits for its persisted answer; rejections become errors. */
  int call(dev.tideway.protocol.meta.DdlCommand cmd) {
    try {
      return await(meta.submit(cmd));
    } catch (DdlRejectedException rej) {
      throw PgException.error(sqlState(rej.reason()), rej.getMessage());
    }
  }

  /** Waits for a meta answer; a rejection is thrown as it is, other failures become errors. */
  private static <T> T await(CompletableFuture<T> answer) {
    try {
      return answer.get(DDL_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw PgException.error(SqlState.QUERY_CANCELED, "interrupted while waiting for meta");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DdlRejectedException rej) {
        throw rej;
      }
      String why = Failures.rootMessage(e);
      throw why.contains("FENCED") || why.contains("does not lead")
          ? PgException.error( // a leader change: retryable, but the DDL's fate is unknown
              "57P03", "the meta leader changed while this ran; check whether it took, then retry")
          : PgException.error(SqlState.INTERNAL_ERROR, "meta: " + why);
    } catch (TimeoutException e) {
      throw PgException.error(
          SqlState.INTERNAL_ERROR, "meta did not answer within " + DDL_TIMEOUT_S + " s");
    }
  }

  private static String sqlState(DdlReply.Rejected.Reason reason) {
    return switch (reason) {
      case ALREADY_EXISTS -> SqlState.DUPLICATE_TABLE;
      case NOT_FOUND -> SqlState.UNDEFINED_TABLE;
      case HAS_DEPENDENTS -> SqlState.DEPENDENT_OBJECTS_STILL_EXIST;
      case NO_COMPUTE_NODES -> "53000";
      case INVALID -> SqlState.INVALID_PARAMETER_VALUE;
      case WRONG_STATUS -> "55000";
    };
  }

  @Override
  public List<DdlJob> jobs() {
    CatalogState s = state();
    Map<Long, JobProgress> now = meta.progress();
    List<DdlJob> out = new ArrayList<>();
    lastShown.keySet().removeIf(id -> !s.jobs().containsKey(id.intValue()));
    for (JobRecord j : s.jobs().values()) {
      if (j.status() == JobStatus.CREATING || j.status() == JobStatus.PAUSED) {
        boolean paused = j.status() == JobStatus.PAUSED;
        JobProgress p = paused ? initial(j.jobId()) : shown(j.jobId(), now.get((long) j.jobId()));
        java.time.Instant at = java.time.Instant.ofEpochMilli(j.createdAtMs());
        out.add(new DdlJob(j.jobId(), j.definition(), j.createType().name(), at, p, j.error()));
      }
    }
    return out;
  }

  /**
   * What to show for a job: the leader's figure, unless it is missing (a failover in progress) or
   * behind what this frontend already showed (a new leader restores the last committed snapshot):
   * progress a user sees never goes backwards.
   */
  private JobProgress shown(long jobId, JobProgress fromLeader) {
    JobProgress last = lastShown.get(jobId);
    JobProgress p = fromLeader;
    if (p == null || (last != null && last.displayRatio() > p.displayRatio())) {
      p = last;
    }
    if (p == null) {
      p = initial(jobId);
    }
    lastShown.put(jobId, p);
    return p;
  }

  /** A job accepted but not yet in a committed epoch: 0 % of an unknown denominator. */
  private static JobProgress initial(long jobId) {
    return new JobProgress(
        jobId,
        0,
        BackfillMode.ARRANGEMENT,
        JobPhase.SNAPSHOT,
        0,
        0,
        0,
        0,
        OptionalLong.empty(),
        false,
        0,
        0,
        0,
        OptionalLong.empty(),
        0,
        0,
        0,
        0,
        0,
        0,
        java.util.Optional.empty());
  }

  @Override
  public List<TableStats> tableStats() {
    List<TableStats> out = new ArrayList<>();
    store
        .tableStats()
        .forEach(
            (id, t) ->
                out.add(
                    new TableStats(
                        id,
                        t.totalKeyCount(),
                        t.liveRowCount(),
                        t.totalKeyBytes(),
                        t.totalValueBytes())));
    return out;
  }

  @Override
  public long flush() {
    long start = committedEpoch();
    long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(DDL_TIMEOUT_S);
    int commits = 0;
    long seen = start;
    // with no actor anywhere no write can be pending, and the barrier loop injects nothing
    while (commits < 2
        && state().fragments().values().stream().anyMatch(g -> !g.actors().isEmpty())) {
      long now = committedEpoch();
      if (now > seen) {
        commits++;
        seen = now;
      } else if (clock.nanoTime() > deadline) {
        throw PgException.error(
            SqlState.INTERNAL_ERROR,
            "FLUSH: no checkpoint committed within " + DDL_TIMEOUT_S + " s (epoch " + start + ")");
      } else {
        try {
          clock.sleepMillis(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw PgException.error(SqlState.QUERY_CANCELED, "FLUSH interrupted");
        }
      }
    }
    return seen;
  }

  /**
   * Judges the acks against the recovery log, waiting while a write of the newest generation is
   * still pending (checkpoints below its epoch were in flight when it was acknowledged), so a
   * committed write is never reported lost and a write reported committed is visible to reads.
   */
  @Override
  public List<WriteAck> lostWrites(List<WriteAck> acks) {
    long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(DDL_TIMEOUT_S);
    long pauseMs = 5;
    while (true) {
      CatalogState state =
          meta.freshCatalog()
              .orElseThrow(
                  () ->
                      PgException.error(
                          "57P03",
                          "the meta service is not ready to confirm this session's writes"));
      long committed = state.versionPointer().map(p -> p.maxCommittedEpoch()).orElse(0L);
      RecoveryLog log = state.recoveries();
      List<WriteAck> lost = new ArrayList<>();
      WriteAck pending = null;
      for (WriteAck a : acks) {
        RecoveryLog.Fate f = log.fate(a.generation(), a.epoch(), committed);
        if (f == RecoveryLog.Fate.PENDING) {
          pending = a;
        } else if (f == RecoveryLog.Fate.LOST) {
          lost.add(a);
        } else if (f == RecoveryLog.Fate.UNKNOWN) {
          throw PgException.error(
              SqlState.TRANSACTION_ROLLBACK,
              "cannot tell whether this session's writes since its last FLUSH committed: more than "
                  + RecoveryLog.MAX_ENTRIES
                  + " recoveries happened since (write of generation "
                  + a.generation()
                  + ", epoch "
                  + a.epoch()
                  + ")");
        }
      }
      if (pending == null) {
        return lost;
      }
      if (clock.nanoTime() > deadline) {
        throw PgException.error(
            SqlState.INTERNAL_ERROR,
            "no checkpoint reached epoch "
                + pending.epoch()
                + " of this session's write within "
                + DDL_TIMEOUT_S
                + " s (committed epoch "
                + committed
                + ")");
      }
      try {
        clock.sleepMillis(pauseMs); // each look loads the catalog from ZooKeeper: back off
        pauseMs = Math.min(100, pauseMs * 2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw PgException.error(SqlState.QUERY_CANCELED, "FLUSH interrupted");
      }
    }
  }

  @Override
  public long committedEpoch() {
    return meta.committedEpoch();
  }
}
