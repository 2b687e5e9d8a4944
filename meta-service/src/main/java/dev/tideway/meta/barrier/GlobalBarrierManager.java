package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.global.BarrierDecision;
import dev.tideway.barrier.global.Command;
import dev.tideway.barrier.global.GlobalBarrierCore;
import dev.tideway.barrier.global.Topology;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.CreateMviewProgressTracker;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.common.check.Failures;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.catalog.DdlService;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.progress.ProgressSnapshotCodec;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.SystemParams;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's barrier loop: runs {@link GlobalBarrierCore} on one thread ({@code meta-barrier-1})
 * and carries out its decisions, in order.
 *
 * <p>Overview: a timer ticks the core (inject when due); answers from compute nodes are queued to
 * the same thread. Each tick first syncs the catalog: a newly accepted job's actors are built, then
 * it rides on the next barrier as an {@code Add} command (which forces a checkpoint) and is
 * registered with the progress tracker when that barrier commits (so no job is CREATED before its
 * actors run); a removed job rides as a {@code Stop}, and its tables are dropped from storage after
 * the {@code Stop} commits. A backfill rate limit persisted by the DDL service rides as a {@code
 * Throttle} command ({@link #throttle}; see {@link ThrottleRequests}). On {@code CommitEpoch}: 1.
 * {@link VersionCommitter#commit} makes the version durable; 2. the tracker applies the epoch's
 * mutations and reports against that version's stats; 3. one fenced write through the {@link
 * DdlService} persists the version pointer, every creating job's tracker snapshot and the jobs that
 * became CREATED; 4. listeners (waiters, metrics) hear the update. On {@code StartRecovery}, and
 * when the leader starts, it resets the compute nodes to the committed epoch and restarts the world
 * with an INITIAL barrier.
 *
 * <p>Failover: the core's generation is {@code term.epoch << 32}, above every generation of an
 * earlier leader; the tracker is restored from the snapshots persisted with the last commit, so
 * progress never drops to zero.
 *
 * <p>Thread confinement: every field below {@link #owner} is touched only on the owner thread;
 * {@link #latest} and {@link #committedEpoch} are volatile snapshots for readers.
 *
 * @param <S> the storage engine's SST info type
 */
public final class GlobalBarrierManager<S> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GlobalBarrierManager.class);

  /**
   * Everything a manager needs besides its term; one per meta process.
   *
   * @param config barrier scheduling, or null to take it from the cluster's system parameters
   *     ({@code barrier_interval_ms}, {@code checkpoint_frequency}, {@code max_inflight_barriers})
   *     when the loop starts
   */
  public record Deps<S>(
      BarrierConfig config,
      ProgressConfig progressConfig,
      Clock clock,
      ComputeClient compute,
      VersionCommitter<S> versions,
      DdlService ddl,
      Consumer<ProgressUpdate> progressListener,
      BarrierObserver observer,
      RecoveryBackoff backoff) {
    /** Without metrics, with the default recovery backoff. */
    public Deps(
        BarrierConfig config,
        ProgressConfig progressConfig,
        Clock clock,
        ComputeClient compute,
        VersionCommitter<S> versions,
        DdlService ddl,
        Consumer<ProgressUpdate> progressListener) {
      this(
          config,
          progressConfig,
          clock,
          compute,
          versions,
          ddl,
          progressListener,
          BarrierObserver.NONE,
          RecoveryBackoff.DEFAULT);
    }
  }

  private final Deps<S> deps;
  private final LeaderTerm term;
  private final ScheduledExecutorService owner = Threads.scheduler("meta-barrier");

  private GlobalBarrierCore<S> core;
  private CreateMviewProgressTracker tracker;

  /** Written on the owner thread only; volatile so other threads may read a snapshot. */
  private volatile CatalogState known;

  private long nextCommandId = 1;
  private long recoveries;

  /** Recoveries since the last committed checkpoint, and when the next one may start. */
  private int recoveryStreak;

  private long nextRecoveryAtMs;

  /**
   * Accepted jobs whose {@code Add} has not committed yet: the tracker learns of them only with
   * that commit, so no job (a table without backfill in particular) becomes CREATED before its
   * actors run.
   */
  private final Set<Integer> awaitingAdd = new HashSet<>();

  /** Jobs whose actors are being built; their Add is scheduled when the build completes. */
  private final Set<Integer> pendingBuilds = new HashSet<>();

  /**
   * Removed jobs whose {@code Stop} barrier is not committed yet: their actors stay in the topology
   * until then, so a later topology update cannot strand a queued {@code Stop} (and every command
   * behind it) with no actor to collect it.
   */
  private final Map<Integer, FragmentGraph> stopping = new HashMap<>();

  /**
   * Removed jobs (and, under key 0, tables a former leader's catalog lost) whose storage tables are
   * dropped at the first commit after their {@code Stop} committed (no actor writes them then).
   */
  private final Map<Integer, Set<Integer>> tablesToDrop = new HashMap<>();

  /** Backfill rate limits on their way to the running actors. */
  private final ThrottleRequests throttles = new ThrottleRequests();

  private final BarrierLog log = new BarrierLog(64);
  private final FailingJobs failing = new FailingJobs(FailingJobs.DEFAULT_MAX_FAILURES);
  private final RecoverySteps steps;
  private final NodeIds nodeIds = new NodeIds();

  /** Why the core is recovering, for the retries of {@link #recoverNow}. */
  private String pendingReason = "waiting for actors to recover";

  /** Set when a commit's metadata could not be persisted: this loop stops acting for good. */
  private boolean halted;

  /** Told (once, on the owner thread) when the loop halts; the runner resigns the term. */
  private volatile Consumer<String> onHalt = reason -> {};

  private volatile Map<Long, JobProgress> latest = Map.of();
  private volatile long committedEpoch;
  private volatile int inflight;

  public GlobalBarrierManager(Deps<S> deps, LeaderTerm term) {
    this.deps = deps;
    this.term = term;
    this.steps = new RecoverySteps(deps.ddl());
  }

  /**
   * Calls {@code hook} with the reason when this loop halts (a commit whose outcome is unknown):
   * its in-memory state is then ahead of what is durable, and only a new term can go on.
   */
  public void onHalt(Consumer<String> hook) {
    this.onHalt = hook;
  }

  private void halt(String reason) {
    halted = true;
    throttles.settle();
    onHalt.accept(reason);
  }

  /** Starts ticking; the loop initialises once the DDL service has loaded the catalog. */
  public void start() {
    long intervalMs =
        deps.config() == null
            ? SystemParams.MIN_BARRIER_INTERVAL_MS
            : deps.config().barrierIntervalMs();
    long tickMs = Math.max(5, Math.min(100, intervalMs / 4));
    owner.scheduleWithFixedDelay(this::tickSafely, 0, tickMs, TimeUnit.MILLISECONDS);
  }

  /** A node's answer, from any thread. */
  public void onCompleted(BarrierCompleted<S> c) {
    run(
        () -> {
          if (core != null) {
            core.onCompleted(c);
          }
        });
  }

  /**
   * Runs {@code step} on the owner thread, logging a failure (a scheduled executor would swallow it
   * silently).
   */
  private void run(Runnable step) {
    owner.execute(
        () -> {
          if (halted) {
            return;
          }
          try {
            step.run();
          } catch (RuntimeException e) {
            LOG.error("barrier loop of epoch {} failed a step", term.epoch(), e);
          }
        });
  }

  /** A node reported an actor failure, from any thread. */
  public void onNodeFailure(NodeFailure f) {
    run(
        () -> {
          if (core != null) {
            boolean wasRecovering = core.isRecovering();
            core.onNodeFailure(f);
            if (!wasRecovering && core.isRecovering()) {
              failing.onFailure(known, f);
            }
          }
        });
  }

  /**
   * The cluster lost the compute node at {@code address} (membership, from any thread): if it runs
   * actors, a global recovery starts; it relocates the node's actors once its registration is gone.
   */
  public void onNodeLost(String address, String reason) {
    run(
        () -> {
          nodeIds
              .idOf(address)
              .ifPresent(
                  nodeId -> {
                    if (core != null) {
                      core.onNodeLost(nodeId, address + ": " + reason);
                    }
                  });
        });
  }

  /**
   * Brings a backfill rate limit, already persisted in the job's fragment graph, to the job's
   * running actors: a {@code Throttle} command on the next barrier (right behind the job's {@code
   * Add} when its actors are still being built from the old graph). From any thread.
   *
   * @return completes with {@link DdlReply.BackfillThrottled}: CHECKPOINT when the checkpoint
   *     carrying the Throttle committed; RECOVERY when a recovery rebuilt the actors from the
   *     persisted graph instead; PERSISTED when this loop stops first. Fails when the job was
   *     removed before its actors ran.
   */
  public CompletableFuture<DdlReply> throttle(DdlReply.BackfillRateLimitSet set) {
    ThrottleRequests.Request r = new ThrottleRequests.Request(set, new CompletableFuture<>());
    try {
      owner.execute(() -> scheduleThrottle(r));
    } catch (RejectedExecutionException e) {
      r.answer(DdlReply.BackfillThrottled.Applied.PERSISTED, 0); // closed: the next term builds it
    }
    return r.reply();
  }

  private void scheduleThrottle(ThrottleRequests.Request r) {
    try {
      if (halted) {
        r.answer(DdlReply.BackfillThrottled.Applied.PERSISTED, 0);
        return;
      }
      if (core == null) {
        throttles.awaitRecovery(r); // init loads the persisted graph and recovers from it
        return;
      }
      syncCatalog(); // a reset from now on builds the job with the persisted rate
      int jobId = r.jobId();
      if (core.isRecovering()) {
        throttles.awaitRecovery(r);
      } else if (!known.fragments().containsKey(jobId)) {
        r.reply()
            .completeExceptionally(
                new IllegalStateException(
                    "job " + jobId + " was removed; no backfill to throttle"));
      } else if (pendingBuilds.contains(jobId)) {
        throttles.deferUntilAdd(r);
      } else {
        scheduleThrottleCommand(r);
      }
    } catch (RuntimeException e) {
      LOG.error("barrier loop of epoch {} failed to schedule a Throttle", term.epoch(), e);
      r.reply().completeExceptionally(e);
    }
  }

  private void scheduleThrottleCommand(ThrottleRequests.Request r) {
    long id = nextCommandId++;
    core.schedule(new Command(id, r.mutation(), null));
    throttles.scheduled(id, r);
    LOG.info(
        "job {}: backfill rate limit {} rows/s for actors {} rides on command {}",
        r.jobId(),
        r.set().rowsPerSecond(),
        r.set().rateByActor().keySet(),
        id);
  }

  /** The progress of every creating job at the last commit. */
  public Map<Long, JobProgress> progress() {
    return latest;
  }

  public long committedEpoch() {
    return committedEpoch;
  }

  /** The addresses of the compute nodes that run actors, sorted; empty before the loop starts. */
  public List<String> computeNodes() {
    CatalogState k = known;
    return k == null ? List.of() : List.copyOf(Topologies.nodeIds(FailingJobs.running(k)).keySet());
  }

  /** The address of the node an {@code InjectBarrier} of this term names, if known. */
  public Optional<String> nodeAddress(int nodeId) {
    return nodeIds.addressOf(nodeId);
  }

  /** Barriers injected and not yet collected from every node. */
  public int inflightBarriers() {
    return inflight;
  }

  /** The recent barriers, oldest first, with inject/collect/commit times. */
  public List<BarrierLog.Entry> recentBarriers() {
    return log.recent();
  }

  private void tickSafely() {
    if (halted) {
      return;
    }
    try {
      if (core == null) {
        init();
      } else {
        syncCatalog();
        if (core.isRecovering()) {
          recoverNow(pendingReason);
        }
        core.tick();
      }
    } catch (RuntimeException e) {
      LOG.error("barrier loop of epoch {} failed a step; retrying next tick", term.epoch(), e);
    }
  }

  private void init() {
    Optional<CatalogState> s = deps.ddl().snapshot();
    if (s.isEmpty()) {
      return;
    }
    known = s.get();
    long persisted = known.versionPointer().map(p -> p.maxCommittedEpoch()).orElse(0L);
    // The storage may be one commit ahead of ZooKeeper (the pointer write had an unknown outcome
    // and the old leader halted): its data is a complete checkpoint, so start from it.
    long stored = deps.versions().current().pointer().maxCommittedEpoch();
    long committed = Math.max(persisted, stored);
    committedEpoch = committed;
    core =
        new GlobalBarrierCore<>(
            config(known.params()),
            deps.clock(),
            committed,
            this::onDecision,
            (long) term.epoch() << 32);
    tracker = restoreTracker(known);
    Set<Integer> orphans = orphanTables(known);
    if (!orphans.isEmpty()) {
      LOG.info("tables {} hold data but left the catalog; dropping them", orphans);
      tablesToDrop.put(0, orphans);
    }
    LOG.info(
        "barrier loop of epoch {} starts at committed epoch {} with {} creating jobs",
        term.epoch(),
        committed,
        tracker.jobIds().size());
    pendingReason = "meta leader elected with epoch " + term.epoch();
    recoverNow(pendingReason);
  }

  private BarrierConfig config(SystemParams p) {
    if (deps.config() != null) {
      return deps.config();
    }
    return new BarrierConfig(
        p.barrierIntervalMs(),
        p.checkpointFrequency(),
        p.maxInflightBarriers(),
        BarrierConfig.DEFAULT.collectTimeoutMs());
  }

  private CreateMviewProgressTracker restoreTracker(CatalogState s) {
    List<ProgressSnapshotCodec.Saved> saved = new ArrayList<>();
    for (JobRecord j : s.jobs().values()) {
      if (j.status() == JobStatus.CREATING && j.progressSnapshot().length > 0) {
        saved.add(ProgressSnapshotCodec.decode(j.progressSnapshot()));
      }
    }
    TrackerSnapshot snap = ProgressSnapshotCodec.combine(saved);
    return CreateMviewProgressTracker.restore(snap, deps.progressConfig());
  }

  /**
   * Resets the nodes and restarts the world, unless there is nothing to run yet or the backoff
   * delays it (the next tick retries: the core stays recovering).
   */
  private void recoverNow(String reason) {
    if (!core.isRecovering()) {
      return;
    }
    if (Topologies.of(FailingJobs.running(known)).size() == 0) {
      steps.resetDone(); // nothing left to reset: answer the CREATEs an earlier attempt removed
      return;
    }
    long now = deps.clock().currentTimeMillis();
    if (now < nextRecoveryAtMs) {
      return;
    }
    recoveries++;
    RecoveryCause cause = RecoveryCause.of(reason);
    LOG.warn(
        "recovery #{} cause={} (generation {}, committed epoch {}, streak {}): {}",
        recoveries,
        cause.label(),
        core.generation(),
        core.committedEpoch(),
        recoveryStreak,
        reason);
    deps.observer().onRecovery(cause.label());
    recoveryStreak++;
    nextRecoveryAtMs = now + deps.backoff().delayMs(recoveryStreak);
    pendingBuilds.clear(); // the reset builds every actor of every graph
    awaitingAdd.forEach(jobId -> track(known, jobId)); // and the INITIAL barrier starts them
    awaitingAdd.clear();
    stopping.clear(); // and drops every actor, stopped jobs' included
    Optional<String> failed = steps.isolate(recoveries, known, failing);
    if (failed.isEmpty()) {
      syncCatalog(); // a removed job's tables are dropped after the next commit
      failed = steps.relocate(recoveries);
    }
    if (failed.isEmpty()) {
      syncCatalog();
      failed = steps.record(recoveries, core.generation(), core.committedEpoch());
    }
    if (failed.isPresent()) {
      pendingReason = failed.get();
      return;
    }
    CatalogState running = FailingJobs.running(known);
    Topology topology = Topologies.of(running, nodeIds.assign(running));
    try {
      deps.compute().reset(core.generation(), core.committedEpoch(), running);
    } catch (RuntimeException e) {
      long retryMs = nextRecoveryAtMs - now;
      LOG.warn("recovery #{}: reset failed ({}); retrying in {} ms", recoveries, e, retryMs);
      pendingReason = "reset failed: " + e.getMessage();
      return;
    }
    core.recovered(topology);
    steps.resetDone();
    inflight = core.inflightCount();
    throttles.recovered(core.committedEpoch()).forEach(tracker::onMutation);
  }

  /** Registers new jobs (Add) and stops removed ones (Stop). */
  private void syncCatalog() {
    Optional<CatalogState> s = deps.ddl().snapshot();
    if (s.isEmpty() || s.get().fragments().equals(known.fragments())) {
      if (s.isPresent()) {
        known = s.get();
      }
      return;
    }
    CatalogState next = s.get();
    for (FragmentGraph g : next.fragments().values()) {
      if (!known.fragments().containsKey(g.jobId())) {
        addJob(next, g);
      }
    }
    // Every job removed since the last sync stops at one barrier: DROP TABLE … CASCADE removes a
    // table and the views reading it together, and a table stopped a barrier before its views
    // would never send them another barrier (every checkpoint after it timed out).
    Set<Integer> stop = new HashSet<>();
    for (FragmentGraph g : known.fragments().values()) {
      if (!next.fragments().containsKey(g.jobId())) {
        tracker.cancel(g.jobId());
        awaitingAdd.remove(g.jobId());
        tablesToDrop.put(g.jobId(), tablesOf(known, g.jobId()));
        Set<Integer> actors =
            Set.copyOf(g.actors().stream().map(FragmentGraph.Actor::actorId).toList());
        if (pendingBuilds.contains(g.jobId()) || FailingJobs.paused(known, g.jobId())) {
          continue; // never started (onBuilt drops its actors), or paused: no actor runs
        }
        if (!actors.isEmpty() && !core.isRecovering()) {
          stopping.put(g.jobId(), g);
          stop.addAll(actors);
        }
      }
    }
    if (!stop.isEmpty()) {
      core.schedule(new Command(nextCommandId++, new Mutation.Stop(Set.copyOf(stop)), null));
    }
    known = next;
  }

  /** Starts tracking job {@code jobId}'s progress (from its persisted initial snapshot). */
  private void track(CatalogState s, int jobId) {
    JobRecord job = s.jobs().get(jobId);
    if (job != null
        && job.status() == JobStatus.CREATING
        && job.progressSnapshot().length > 0
        && !tracker.jobIds().contains((long) jobId)) {
      var snap = ProgressSnapshotCodec.decode(job.progressSnapshot()).job();
      var spec = snap.spec();
      tracker.register(spec, null, core.committedEpoch());
      if (!snap.rateLimits().isEmpty()) {
        // the plan's rate limits (SET backfill_rate_limit before the CREATE): THROTTLED at once
        tracker.onMutation(new Mutation.Throttle(snap.rateLimits()));
      }
      LOG.info("tracking job {} with {} backfill actors", jobId, spec.actors().size());
    }
  }

  /** A commit carries these mutations: jobs whose Add is among them start being tracked. */
  private void trackAdded(List<Mutation> mutations) {
    for (Mutation m : mutations) {
      if (m instanceof Mutation.Add add) {
        awaitingAdd.removeIf(
            jobId -> {
              FragmentGraph g = known.fragments().get(jobId);
              if (g == null) {
                return true; // dropped meanwhile
              }
              boolean added = g.actors().stream().anyMatch(a -> add.actors().contains(a.actorId()));
              if (added) {
                track(known, jobId);
              }
              return added;
            });
      }
    }
  }

  /** The storage tables of job {@code jobId}: its relation and internal tables. */
  private static Set<Integer> tablesOf(CatalogState s, int jobId) {
    Set<Integer> out = new HashSet<>();
    s.objects()
        .values()
        .forEach(
            o -> {
              if (o.jobId() == jobId && o.kind() != ObjectKind.SOURCE) {
                out.add(o.id());
              }
            });
    return out;
  }

  /**
   * Tables with data in storage that the catalog no longer has (a job removed just before the
   * previous leader stopped): allocated ids only, so nothing a frontend is about to create.
   */
  private Set<Integer> orphanTables(CatalogState s) {
    Set<Integer> out = new HashSet<>(deps.versions().tablesWithData());
    out.removeIf(t -> s.objects().containsKey(t) || t <= 0 || t >= s.nextId().next());
    return out;
  }

  /** After a commit: drops the tables of removed jobs whose actors are stopped. Owner thread. */
  private void dropStoppedTables() {
    Set<Integer> tables = new HashSet<>();
    List<Integer> jobs = new ArrayList<>();
    tablesToDrop.forEach(
        (job, ts) -> {
          if (!stopping.containsKey(job) && !pendingBuilds.contains(job)) {
            tables.addAll(ts);
            jobs.add(job);
          }
        });
    if (jobs.isEmpty()) {
      return;
    }
    try {
      if (!tables.isEmpty()) {
        deps.versions().dropTables(tables);
      }
      jobs.forEach(tablesToDrop::remove);
    } catch (RuntimeException e) {
      LOG.warn("dropping tables {} failed; retrying after the next commit", tables, e);
    }
  }

  private void addJob(CatalogState next, FragmentGraph g) {
    if (core.isRecovering() || g.actors().isEmpty()) {
      // recovery builds every actor of the graph and its INITIAL barrier starts them: every later
      // commit includes the job's data
      track(next, g.jobId());
      return;
    }
    awaitingAdd.add(g.jobId());
    pendingBuilds.add(g.jobId());
    long generation = core.generation();
    CompletableFuture<Void> built;
    try {
      built = deps.compute().build(g, next);
    } catch (RuntimeException e) {
      built = CompletableFuture.failedFuture(e);
    }
    built.whenComplete((ok, failure) -> run(() -> onBuilt(g, generation, failure)));
  }

  /**
   * A job's actors are built (or not): schedule its Add, or fail the job. Owner thread. A recovery
   * meanwhile rebuilt everything and starts it with the INITIAL barrier: nothing to add then.
   */
  private void onBuilt(FragmentGraph g, long generation, Throwable failure) {
    boolean wanted = pendingBuilds.remove(g.jobId());
    Set<Integer> actors =
        Set.copyOf(g.actors().stream().map(FragmentGraph.Actor::actorId).toList());
    if (!known.fragments().containsKey(g.jobId())) {
      deps.compute().drop(actors); // dropped while building
      throttles.jobRemoved(
          g.jobId(), "job " + g.jobId() + " was removed while its actors were built");
      return;
    }
    if (!wanted || generation != core.generation() || core.isRecovering()) {
      return;
    }
    if (failure != null) {
      String reason =
          "building the actors of job " + g.jobId() + " failed: " + Failures.rootMessage(failure);
      LOG.warn("{}; the job is removed", reason);
      deps.compute().drop(actors);
      tracker.cancel(g.jobId());
      awaitingAdd.remove(g.jobId());
      deps.ddl().submit(new DdlCommand.FailJob(g.jobId(), reason));
      throttles.jobRemoved(g.jobId(), reason);
      return;
    }
    Map<Integer, List<Integer>> upstreams = new HashMap<>();
    g.actors().forEach(a -> upstreams.put(a.actorId(), a.upstreamActorIds()));
    Mutation add = new Mutation.Add(Set.copyOf(upstreams.keySet()), upstreams, Map.of(), false);
    core.schedule(new Command(nextCommandId++, add, runningTopology()));
    throttles.takeDeferred(g.jobId()).forEach(this::scheduleThrottleCommand);
  }

  /** The topology of every job whose actors run (those still being built left out). */
  private Topology runningTopology() {
    Map<Integer, FragmentGraph> running = new HashMap<>(FailingJobs.running(known).fragments());
    pendingBuilds.forEach(running::remove);
    stopping.forEach(running::putIfAbsent);
    CatalogState withStopping =
        new CatalogState(
            known.params(),
            known.objects(),
            known.jobs(),
            running,
            known.versionPointer(),
            known.nextId(),
            known.recoveries());
    Map<String, Integer> ids = nodeIds.assign(withStopping);
    return Topologies.of(withStopping, ids);
  }

  private void onDecision(BarrierDecision<S> d) {
    if (halted) {
      return; // a decision of the same step after the halt (a later commit would skip the hole)
    }
    long now = deps.clock().currentTimeMillis();
    if (d instanceof BarrierDecision.Inject<S> inject) {
      log.injected(inject.barrier(), now);
      inflight = core == null ? inflight + 1 : core.inflightCount();
      inject.requests().forEach(deps.compute()::inject);
    } else if (d instanceof BarrierDecision.CommitEpoch<S> c) {
      collected(c.epoch().curr(), "CHECKPOINT", now);
      commit(c);
    } else if (d instanceof BarrierDecision.StartRecovery<S> r) {
      String reason = r.reason();
      pendingReason = reason;
      inflight = 0;
      throttles.recoveryStarted(r.failedCommandIds());
      run(() -> recoverNow(reason));
    } else if (d instanceof BarrierDecision.Collected<S> c) {
      // nothing to persist; its progress waits for the next checkpoint
      collected(c.epoch().curr(), c.kind().name(), now);
    }
  }

  private void collected(long curr, String kind, long now) {
    long injected = log.collected(curr, now);
    inflight = core.inflightCount();
    if (injected >= 0) {
      deps.observer().onCollected(kind, Math.max(0, now - injected) / 1000.0);
    }
  }

  private void commit(BarrierDecision.CommitEpoch<S> c) {
    long t0 = deps.clock().nanoTime();
    VersionCommitter.CommittedVersion v;
    try {
      v = deps.versions().commit(c.committedEpochs(), c.ssts(), c.statsDeltas());
    } catch (RuntimeException e) {
      // The outcome may be unknown (the store may hold the epoch while the version manager does
      // not know it), and the core already counts the epoch: going on would leave a hole, and a
      // recovery would reset the nodes (and log a base for FLUSH) on a guess. Stop acting, as for
      // an unknown ZooKeeper outcome below; the next term starts from what storage holds.
      LOG.error(
          "barrier loop of epoch {} halts: the storage commit of epoch {} failed (last durable"
              + " {}); the leader resigns so that a new term starts from the stored version",
          term.epoch(),
          c.committedEpoch(),
          committedEpoch,
          e);
      halt("the storage commit of epoch " + c.committedEpoch() + " failed");
      return;
    }
    trackAdded(c.mutations());
    c.mutations().forEach(tracker::onMutation);
    ProgressUpdate u = tracker.onEpochCommitted(c.epoch(), true, c.progress(), v.stats());
    LOG.debug("commit {}: tracker jobs {}, update {}", c.committedEpoch(), tracker.jobIds(), u);
    TrackerSnapshot snap = tracker.snapshot(c.epoch().curr());
    Map<Integer, byte[]> progressByJob = new HashMap<>();
    for (TrackerSnapshot.JobSnapshot j : snap.jobs()) {
      progressByJob.put(
          Math.toIntExact(j.spec().jobId()),
          ProgressSnapshotCodec.encode(snap.epoch(), snap.meanBarrierIntervalMs(), j));
    }
    List<Integer> finished = u.finishedJobIds().stream().map(Math::toIntExact).toList();
    try {
      deps.ddl()
          .submit(new DdlCommand.CommitEpoch(v.pointer(), progressByJob, finished))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // FENCED: deposed. UNKNOWN_OUTCOME: the pointer may or may not be written. Either way the
      // in-memory core is ahead of ZooKeeper: stop acting; the next term restarts from ZooKeeper
      // (the version committer is idempotent per epoch, so a re-commit is safe).
      LOG.error(
          "barrier loop of epoch {} halts: metadata of committed epoch {} not persisted",
          term.epoch(),
          c.committedEpoch(),
          e);
      halt("metadata of committed epoch " + c.committedEpoch() + " not persisted");
      return;
    }
    committedEpoch = c.committedEpoch();
    recoveryStreak = 0;
    nextRecoveryAtMs = 0;
    failing.onCommit();
    log.committed(c.epoch().curr(), deps.clock().currentTimeMillis());
    deps.observer().onCommitted((deps.clock().nanoTime() - t0) / 1e9);
    deps.observer().onEpochCommitted(c.committedEpoch(), v.pointer());
    deps.observer().onReportsCommitted(c.progress());
    if (u.checkpointNeeded()) {
      core.requestForceCheckpoint();
    }
    if (c.mutations().stream().anyMatch(m -> m instanceof Mutation.Stop)) {
      for (Mutation m : c.mutations()) {
        if (m instanceof Mutation.Stop stop) {
          stopping
              .values()
              .removeIf(
                  g -> g.actors().stream().anyMatch(a -> stop.actors().contains(a.actorId())));
        }
      }
      // no topology update here: the core dropped the Stop's actors right after injecting it
    }
    dropStoppedTables();
    Map<Long, JobProgress> next = new HashMap<>();
    u.jobs().forEach(p -> next.put(p.jobId(), p));
    latest = Map.copyOf(next);
    deps.progressListener().accept(u);
    // after the progress is published: a caller sees the figures of the commit that answered it
    throttles.committed(c.commandIds(), c.epoch().curr());
  }

  @Override
  public void close() {
    try {
      owner.execute(throttles::settle); // runs before the owner terminates
    } catch (RejectedExecutionException e) {
      // closed before
    }
    owner.shutdown();
    try {
      owner.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
