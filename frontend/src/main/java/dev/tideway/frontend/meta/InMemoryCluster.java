package dev.tideway.frontend.meta;

import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * <b>Test and benchmark stand-in</b> for the meta service and the compute cluster, in one JVM and
 * without stream processing: tables are maps from primary key to row, a materialized view's rows
 * are computed on read by a {@link #setViewEvaluator view evaluator} (the frontend's batch engine
 * running the view's query), and creating jobs finish at once unless {@link #holdJobs} keeps them
 * running so that tests can drive their progress with {@link #advanceJob} and {@link #finishJob}.
 *
 * <p>Simplifications (documented so nobody mistakes this for the real thing): every DML write
 * commits immediately and bumps the epoch, so {@code FLUSH} only reports the epoch; reads ignore
 * the epoch they are given (they see the latest state); a table with a primary key overwrites on
 * conflict, as RisingWave's tables do.
 *
 * <p>Thread confinement: connection threads call it concurrently; all state is one immutable {@link
 * State} swapped in an {@link AtomicReference} (copy-on-write, fine at test sizes). The per-view
 * rate limits (a concurrent map written once per create) and job completion futures are the only
 * other shared objects.
 */
public final class InMemoryCluster implements MetaClient, BatchReader, DmlWriter {
  private record Job(DdlJob progress, CompletableFuture<Void> done) {}

  private record State(
      TreeMap<Integer, Relation> relations,
      Map<Integer, Map<List<Object>, Row>> data,
      Map<Long, Job> jobs,
      long epoch) {}

  private final AtomicReference<State> state =
      new AtomicReference<>(new State(new TreeMap<>(), Map.of(), Map.of(), 1));
  private final AtomicInteger nextId = new AtomicInteger(16_383);
  private final Users users = Users.inMemory();

  @Override
  public Users users() {
    return users;
  }

  private final AtomicLong nextRowId = new AtomicLong(1);
  private final AtomicLong flushes = new AtomicLong();
  private final Clock clock;
  private volatile Function<Relation, List<Row>> viewEvaluator = r -> List.of();
  private volatile boolean holdJobs;
  private volatile long progressIntervalMillis = ForegroundJobs.PROGRESS_INTERVAL_MS;

  /**
   * Recovery simulation ({@link #recover}), guarded by {@code this}: the data at the latest FLUSH,
   * the current generation, and per ended generation the last epoch it committed.
   */
  private Map<Integer, Map<List<Object>, Row>> flushedData = Map.of();

  private long flushedEpoch = 1;
  private long generation = 1;
  private final Map<Long, Long> committedUpTo = new HashMap<>();

  /** The backfill rate limit each MV was created with (what meta would send as a Throttle). */
  private final Map<Integer, OptionalLong> rateLimits = new ConcurrentHashMap<>();

  public InMemoryCluster(Clock clock) {
    this.clock = clock;
  }

  /** How materialized views are computed on read (the frontend installs its batch engine). */
  public void setViewEvaluator(Function<Relation, List<Row>> evaluator) {
    this.viewEvaluator = evaluator;
  }

  /** Test knob: keep new materialized-view jobs running until {@link #finishJob}. */
  public void holdJobs(boolean hold) {
    this.holdJobs = hold;
  }

  /** Test knob: how often a waiting foreground create reports progress. */
  public void setProgressIntervalMillis(long millis) {
    this.progressIntervalMillis = millis;
  }

  @Override
  public List<Relation> relations() {
    return List.copyOf(state.get().relations().values());
  }

  @Override
  public int allocateId() {
    return nextId.incrementAndGet();
  }

  @Override
  public List<Long> submit(DdlCommand command, ProgressListener progress)
      throws InterruptedException {
    if (command instanceof DdlCommand.Create c) {
      create(c, progress);
    } else if (command instanceof DdlCommand.Drop d) {
      drop(d);
    } else if (command instanceof DdlCommand.CancelJobs c) {
      return cancel(c.jobIds());
    }
    return List.of();
  }

  private void create(DdlCommand.Create c, ProgressListener listener) throws InterruptedException {
    Relation r = c.relation();
    State s = state.get();
    Checks.checkArgument(
        s.relations().values().stream().noneMatch(x -> x.name().equals(r.name())),
        "relation %s exists",
        r.name());
    if (r.kind() == RelationKind.MATERIALIZED_VIEW) {
      rateLimits.put(r.id(), c.backfillRateLimit());
    }
    if (r.kind() != RelationKind.MATERIALIZED_VIEW || !holdJobs) {
      state.updateAndGet(st -> withRelation(st, r));
      return;
    }
    DdlJob p =
        new DdlJob(
            r.id(),
            r.definition(),
            c.background() ? "BACKGROUND" : "FOREGROUND",
            Instant.ofEpochMilli(clock.currentTimeMillis()),
            progress(r.id(), 0, 0));
    Job job = new Job(p, new CompletableFuture<>());
    state.updateAndGet(st -> withJob(st, job));
    job.done().thenRun(() -> state.updateAndGet(st -> withRelation(withoutJob(st, r.id()), r)));
    if (!c.background()) {
      awaitJob(job, listener);
    }
  }

  private void awaitJob(Job job, ProgressListener listener) throws InterruptedException {
    ForegroundJobs.await(
        job.progress().ddlId(),
        job.done(),
        id -> Optional.ofNullable(state.get().jobs().get(id)).map(Job::progress),
        listener,
        progressIntervalMillis);
  }

  @Override
  public boolean setBackfillRateLimit(long jobId, OptionalLong rowsPerSecond) {
    if (!state.get().jobs().containsKey(jobId)) {
      return false;
    }
    rateLimits.put((int) jobId, rowsPerSecond);
    return true;
  }

  /** The backfill rate limit the view {@code relationId} was created with; empty = unlimited. */
  public OptionalLong backfillRateLimit(int relationId) {
    OptionalLong l = rateLimits.get(relationId);
    Checks.checkState(l != null, "no materialized view %s was created", relationId);
    return l;
  }

  /** Test knob: a held job has read {@code consumed} of {@code upstream} rows. */
  public void advanceJob(long jobId, long consumed, long upstream) {
    state.updateAndGet(
        st -> {
          Job j = st.jobs().get(jobId);
          Checks.checkState(j != null, "no job %s", jobId);
          DdlJob p = j.progress();
          DdlJob np =
              new DdlJob(
                  p.ddlId(),
                  p.statement(),
                  p.createType(),
                  p.initializedAt(),
                  progress(jobId, consumed, upstream));
          return withJob(st, new Job(np, j.done()));
        });
  }

  /** A table backfill's progress as the barrier module's tracker would report it. */
  private JobProgress progress(long jobId, long consumed, long upstream) {
    double raw = upstream == 0 ? Double.NaN : (double) consumed / upstream;
    double display = upstream == 0 ? 0 : Math.min(0.9999, raw);
    return new JobProgress(
        jobId,
        state.get().epoch(),
        BackfillMode.ARRANGEMENT,
        JobPhase.SNAPSHOT,
        consumed,
        0,
        0,
        upstream,
        OptionalLong.of(upstream),
        true,
        raw,
        display,
        0,
        OptionalLong.empty(),
        0,
        0,
        0,
        0,
        1,
        1,
        Optional.empty());
  }

  /** Test knob: a held job completes (its view becomes visible). */
  public void finishJob(long jobId) {
    Job j = state.get().jobs().get(jobId);
    Checks.checkState(j != null, "no job %s", jobId);
    j.done().complete(null);
  }

  private List<Long> cancel(List<Long> ids) {
    List<Long> cancelled = new ArrayList<>();
    for (long id : ids) {
      Job j = state.get().jobs().get(id);
      if (j != null) {
        state.updateAndGet(st -> withoutJob(st, id));
        j.done().cancel(false);
        cancelled.add(id);
      }
    }
    return cancelled;
  }

  private void drop(DdlCommand.Drop d) {
    state.updateAndGet(
        st -> {
          TreeMap<Integer, Relation> rels = new TreeMap<>(st.relations());
          Relation gone = rels.remove(d.relationId());
          Checks.checkState(gone != null, "no relation %s", d.relationId());
          Map<Integer, Map<List<Object>, Row>> data = new HashMap<>(st.data());
          data.remove(d.relationId());
          if (d.cascade()) {
            // transitively: a view on a view on the dropped relation goes too
            Set<Integer> dropped = new HashSet<>(List.of(d.relationId()));
            boolean more = true;
            while (more) {
              more =
                  rels.values()
                      .removeIf(
                          r ->
                              r.dependsOn().stream().anyMatch(dropped::contains)
                                  && dropped.add(r.id()));
            }
            dropped.forEach(data::remove);
          }
          return new State(rels, data, st.jobs(), st.epoch() + 1);
        });
  }

  private static State withRelation(State st, Relation r) {
    TreeMap<Integer, Relation> rels = new TreeMap<>(st.relations());
    rels.put(r.id(), r);
    Map<Integer, Map<List<Object>, Row>> data = new HashMap<>(st.data());
    data.putIfAbsent(r.id(), Map.of());
    return new State(rels, data, st.jobs(), st.epoch() + 1);
  }

  private static State withJob(State st, Job j) {
    Map<Long, Job> jobs = new LinkedHashMap<>(st.jobs());
    jobs.put(j.progress().ddlId(), j);
    return new State(st.relations(), st.data(), jobs, st.epoch());
  }

  private static State withoutJob(State st, long id) {
    Map<Long, Job> jobs = new LinkedHashMap<>(st.jobs());
    jobs.remove(id);
    return new State(st.relations(), st.data(), jobs, st.epoch());
  }

  @Override
  public List<DdlJob> jobs() {
    return state.get().jobs().values().stream().map(Job::progress).toList();
  }

  @Override
  public List<TableStats> tableStats() {
    State s = state.get();
    List<TableStats> out = new ArrayList<>();
    for (Relation r : s.relations().values()) {
      long rows = s.data().getOrDefault(r.id(), Map.of()).size();
      out.add(new TableStats(r.id(), rows, rows, rows * 8, rows * 8L * r.table().columns().size()));
    }
    return out;
  }

  @Override
  public synchronized long flush() {
    flushes.incrementAndGet();
    State s = state.get();
    flushedData = s.data();
    flushedEpoch = s.epoch();
    return s.epoch();
  }

  @Override
  public synchronized List<WriteAck> lostWrites(List<WriteAck> acks) {
    return acks.stream()
        .filter(a -> a.generation() < generation && a.epoch() > committedUpTo.get(a.generation()))
        .toList();
  }

  /**
   * Test knob: a recovery. Every write since the latest FLUSH (of any session) is thrown away, as a
   * cluster's recovery throws away the epochs above the committed one; {@link #lostWrites} names
   * them.
   */
  public synchronized void recover() {
    committedUpTo.put(generation, flushedEpoch);
    generation++;
    Map<Integer, Map<List<Object>, Row>> kept = flushedData;
    state.updateAndGet(st -> new State(st.relations(), kept, st.jobs(), st.epoch() + 1));
  }

  /** Test knob: how many FLUSHes (explicit or implicit) were asked for. */
  public long flushCount() {
    return flushes.get();
  }

  @Override
  public long committedEpoch() {
    return state.get().epoch();
  }

  @Override
  public List<Row> scan(int tableId, long epoch) {
    State s = state.get();
    Relation r = s.relations().get(tableId);
    if (r == null) {
      throw PgException.error(SqlState.UNDEFINED_TABLE, "table " + tableId + " does not exist");
    }
    if (r.kind() == RelationKind.MATERIALIZED_VIEW) {
      return viewEvaluator.apply(r);
    }
    return List.copyOf(s.data().getOrDefault(tableId, Map.of()).values());
  }

  @Override
  public Write begin(int tableId) {
    List<Row> deletes = new ArrayList<>();
    List<Row> inserts = new ArrayList<>();
    return new Write() {
      @Override
      public void delete(Row row) {
        deletes.add(row);
      }

      @Override
      public void insert(Row row) {
        inserts.add(row);
      }

      @Override
      public void update(Row before, Row after) {
        deletes.add(before);
        inserts.add(after);
      }

      @Override
      public long rowsSent() {
        return 0;
      }

      @Override
      public List<WriteAck> finish() {
        return apply(tableId, deletes, inserts);
      }

      @Override
      public void abort() {
        deletes.clear();
        inserts.clear();
      }
    };
  }

  private synchronized List<WriteAck> apply(int tableId, List<Row> deletes, List<Row> inserts) {
    List<Row> withIds = inserts.stream().map(row -> assignRowId(tableId, row)).toList();
    State after =
        state.updateAndGet(
            st -> {
              Relation r = st.relations().get(tableId);
              Checks.checkState(r != null, "no table %s", tableId);
              Map<List<Object>, Row> rows =
                  new LinkedHashMap<>(st.data().getOrDefault(tableId, Map.of()));
              for (Row d : deletes) {
                rows.remove(key(r, d));
              }
              for (Row i : withIds) {
                rows.put(key(r, i), i);
              }
              Map<Integer, Map<List<Object>, Row>> data = new HashMap<>(st.data());
              data.put(tableId, rows);
              return new State(st.relations(), data, st.jobs(), st.epoch() + 1);
            });
    return List.of(
        new WriteAck(tableId, deletes.size() + inserts.size(), generation, after.epoch()));
  }

  private Row assignRowId(int tableId, Row row) {
    Relation r = state.get().relations().get(tableId);
    int idx = r == null ? -1 : r.table().schema().indexOf(Relation.ROW_ID);
    if (idx < 0 || row.get(idx) != null) {
      return row;
    }
    Object[] v = row.toList().toArray();
    v[idx] = nextRowId.getAndIncrement();
    return Row.wrap(v);
  }

  private static List<Object> key(Relation r, Row row) {
    List<Object> k = new ArrayList<>();
    for (ColumnOrder o : r.table().pk()) {
      k.add(row.get(o.index()));
    }
    return k;
  }
}
