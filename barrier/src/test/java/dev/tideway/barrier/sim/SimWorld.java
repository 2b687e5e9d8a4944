package dev.tideway.barrier.sim;

import dev.tideway.barrier.align.BarrierAligner;
import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.global.BarrierDecision;
import dev.tideway.barrier.global.Command;
import dev.tideway.barrier.global.GlobalBarrierCore;
import dev.tideway.barrier.global.NodeActors;
import dev.tideway.barrier.global.Topology;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.CreateMviewProgressTracker;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.barrier.progress.TableStatsView;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.ManualClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One seeded run: one meta (a {@link GlobalBarrierCore} plus a {@link CreateMviewProgressTracker}
 * and a toy version store) and N {@link SimNode}s, all driven by one {@link SimScheduler}. A chaos
 * phase injects actor failures, node crashes, meta failovers, pauses and throttles; a quiet phase
 * then lets every backfill finish. {@link SimInvariants} run after every event and at every commit.
 */
final class SimWorld {
  final RandomSource random;
  final SimScheduler scheduler;
  final ManualClock clock;
  final BarrierConfig config;
  final List<SimNode> nodes = new ArrayList<>();
  final List<SimJob> jobs = new ArrayList<>();
  final SimInvariants invariants = new SimInvariants(this);
  final long chaosMs;
  final long maxMs;

  // --- meta ---
  GlobalBarrierCore<String> core;
  CreateMviewProgressTracker tracker;
  int metaIncarnation;

  /** Persisted with every commit (meta store): the committed epoch and the tracker snapshot. */
  long committedEpoch;

  TrackerSnapshot persistedTracker;
  boolean committedPaused;
  final Map<Integer, Long> committedLimits = new HashMap<>();

  /** The committed version's stats: key counts grow with syncs and shrink with compactions. */
  TableStatsLookup stats;

  final Map<Integer, Long> keyCounts = new HashMap<>();
  final Map<Integer, Long> liveRows = new HashMap<>();
  int recoveries;
  int failovers;
  int commits;
  int creates;
  int pendingControlCommands;
  long nextCommandId = 1;

  /** Source of node i+1 → merge input i: one ordered link each. */
  final List<Channel> mergeLinks = new ArrayList<>();

  /** Truth: how many actors each injected barrier (by curr) must be collected from. */
  final Map<Long, Integer> expectedCollects = new HashMap<>();

  /** Truth: the actors that collected each barrier (by curr), recorded by the actors themselves. */
  final Map<Long, Set<Integer>> collectedBy = new HashMap<>();

  SimWorld(long seed) {
    this.random = RandomSource.seeded(seed);
    this.clock = new ManualClock(Epoch.BASE_UNIX_MS + 100_000_000L);
    this.scheduler = new SimScheduler(clock);
    this.config =
        new BarrierConfig(
            random.nextLong(20, 120), random.nextInt(1, 4), random.nextInt(1, 6), 3_000);
    this.chaosMs = random.nextLong(5_000, 20_000);
    this.maxMs = chaosMs + 300_000;
    buildCluster();
    startMeta(0);
  }

  private void buildCluster() {
    int nodeCount = random.nextInt(2, 5);
    for (int n = 1; n <= nodeCount; n++) {
      SimNode node = new SimNode(n, this);
      node.toMeta = new Channel(scheduler, random, 1, 25);
      node.fromMeta = new Channel(scheduler, random, 1, 25);
      node.sourceInbox = new Channel(scheduler, random, 0, 4);
      node.mergeOut = new Channel(scheduler, random, 0, 4);
      nodes.add(node);
    }
    int jobCount = random.nextInt(1, 4);
    for (int j = 1; j <= jobCount; j++) {
      jobs.add(createJob(j, nodeCount));
    }
    jobs.get(jobCount - 1).deployed = random.chance(0.4); // else CREATEd during the run
    stats =
        new TableStatsLookup() {
          @Override
          public long totalKeyCount(int tableId) {
            return keyCounts.getOrDefault(tableId, 0L);
          }

          @Override
          public long liveRowCount(int tableId) {
            return liveRows.getOrDefault(tableId, -1L);
          }
        };
    SimNode first = nodes.get(0);
    first.mergeActor = first.id * 100 + 99;
    first.mergeInputs = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      first.mergeInputs.add(new ArrayDeque<>());
    }
    first.aligner = new BarrierAligner("actor " + first.mergeActor + " Merge", nodeCount);
    for (SimNode node : nodes) {
      mergeLinks.add(
          node == first
              ? new Channel(scheduler, random, 0, 3)
              : new Channel(scheduler, random, 1, 30));
    }
    for (SimNode node : nodes) {
      rebuildActors(node);
    }
  }

  /** A job of random mode and size with one backfill actor per node; registers its table stats. */
  private SimJob createJob(int j, int nodeCount) {
    BackfillMode mode = random.nextBoolean() ? BackfillMode.SNAPSHOT : BackfillMode.ARRANGEMENT;
    long perActorMax = random.nextLong(20, 400);
    List<Long> sizes = new ArrayList<>();
    long total = 0;
    for (int n = 0; n < nodeCount; n++) {
      long s = random.nextLong(0, 3_000);
      sizes.add(s);
      total += s;
    }
    long keys = total + (random.nextBoolean() ? random.nextLong(0, total / 2 + 1) : 0);
    TableStatsView v = new TableStatsView(1000 + j, keys, random.nextBoolean() ? total : null);
    keyCounts.put(v.tableId(), v.totalKeyCount());
    liveRows.put(v.tableId(), v.liveRowCount() == null ? -1L : v.liveRowCount());
    SimJob job = new SimJob(j, mode, 1000 + j, v);
    for (SimNode node : nodes) {
      SimBackfillActor a =
          new SimBackfillActor(
              node.id * 100 + 10 + j, node.id, job, sizes.get(node.id - 1), perActorMax);
      a.inbox = new Channel(scheduler, random, 0, 6);
      job.actors.add(a);
      node.backfills.add(a);
    }
    return job;
  }

  Topology topology() {
    return topology(false);
  }

  private Topology topology(boolean includeDeploying) {
    List<NodeActors> list = new ArrayList<>();
    int[] tables = jobs.stream().mapToInt(j -> j.tableId).toArray();
    for (SimNode n : nodes) {
      list.add(
          new NodeActors(
              n.id, new int[] {n.sourceActor}, n.actorsToCollect(includeDeploying), tables));
    }
    return new Topology(list);
  }

  private void rebuildActors(SimNode node) {
    node.sourcePaused = committedPaused;
    for (SimBackfillActor a : node.backfills) {
      a.rebuild(
          node.lbm.registerProgressReporter(a.actorId),
          committedPaused,
          committedLimits.get(a.actorId));
    }
  }

  // ------------------------------------------------------------------ meta

  private void startMeta(long generation) {
    metaIncarnation++;
    core = new GlobalBarrierCore<>(config, clock, committedEpoch, this::onDecision, generation);
    if (persistedTracker == null) {
      tracker = new CreateMviewProgressTracker(new ProgressConfig(2_000, 1_000));
      for (SimJob j : jobs.stream().filter(x -> x.deployed).toList()) {
        tracker.register(
            j.spec(),
            j.mode == BackfillMode.SNAPSHOT ? stats : null,
            Epoch.fromUnixMillis(clock.currentTimeMillis()));
      }
      persistedTracker = tracker.snapshot(committedEpoch);
    } else {
      tracker =
          CreateMviewProgressTracker.restore(persistedTracker, new ProgressConfig(2_000, 1_000));
    }
    int inc = metaIncarnation;
    scheduleTick(inc);
    if (generation == 0) {
      core.recovered(topology());
    } else {
      scheduler.after(
          random.nextLong(50, 400), "meta recovery after failover", () -> tryRecover(inc));
    }
  }

  private void scheduleTick(int inc) {
    scheduler.after(
        10,
        "meta tick",
        () -> {
          if (inc == metaIncarnation) {
            core.tick();
            scheduleTick(inc);
          }
        });
  }

  private void onDecision(BarrierDecision<String> d) {
    if (d instanceof BarrierDecision.Inject<String> inj) {
      expectedCollects.put(
          inj.barrier().curr(),
          inj.requests().stream().mapToInt(r -> r.actorsToCollect().length).sum());
      for (InjectBarrier req : inj.requests()) {
        SimNode node = nodes.get(req.nodeId() - 1);
        int nodeInc = node.incarnation;
        node.fromMeta.send(
            "meta injects " + req.barrier().curr() + " into node " + node.id,
            () -> {
              if (node.up && node.incarnation == nodeInc) {
                node.onInject(req);
              }
            });
      }
    } else if (d instanceof BarrierDecision.CommitEpoch<String> c) {
      onCommit(c);
    } else if (d instanceof BarrierDecision.StartRecovery<String> r) {
      recoveries++;
      pendingControlCommands = 0;
      for (SimJob j : jobs) {
        if (r.failedCommandIds().contains(j.addCommandId)) {
          j.deploying = false; // CREATE failed with the lost epoch; it is retried
        }
      }
      int inc = metaIncarnation;
      scheduler.after(random.nextLong(50, 500), "meta recovery", () -> tryRecover(inc));
    }
  }

  private void onCommit(BarrierDecision.CommitEpoch<String> c) {
    invariants.beforeCommit(c);
    committedEpoch = c.committedEpoch();
    commits++;
    for (SimJob j : jobs) {
      for (SimBackfillActor a : j.actors) {
        a.commit(committedEpoch);
      }
    }
    for (dev.tideway.barrier.control.TableStatsDelta d : c.statsDeltas()) {
      keyCounts.merge(d.tableId(), d.totalKeyCountDelta(), Long::sum);
    }
    for (Mutation m : c.mutations()) {
      if (m instanceof Mutation.Add add) {
        deployed(add, c);
      }
      tracker.onMutation(m);
      applyCommittedMutation(m);
    }
    pendingControlCommands -= c.commandIds().size();
    ProgressUpdate u = tracker.onEpochCommitted(c.epoch(), true, c.progress(), stats);
    if (u.checkpointNeeded()) {
      core.requestForceCheckpoint();
    }
    for (long id : u.finishedJobIds()) {
      jobs.get((int) id - 1).created = true;
    }
    invariants.afterCommit(c, u);
    persistedTracker = tracker.snapshot(committedEpoch);
  }

  /** The Add of a CREATE committed: the job exists and its progress is tracked from now on. */
  private void deployed(Mutation.Add add, BarrierDecision.CommitEpoch<String> c) {
    for (SimJob j : jobs) {
      if (!j.deployed && add.actors().contains(j.actors.get(0).actorId)) {
        j.deployed = true;
        j.deploying = false;
        creates++;
        tracker.register(
            j.spec(), j.mode == BackfillMode.SNAPSHOT ? stats : null, c.epoch().curr());
      }
    }
  }

  /** CREATE MATERIALIZED VIEW of a job not yet deployed: an Add command with its actors. */
  private void create(SimJob j) {
    j.deploying = true;
    j.addCommandId = nextCommandId++;
    Map<Integer, List<Integer>> upstream = new HashMap<>();
    for (SimBackfillActor a : j.actors) {
      upstream.put(a.actorId, List.of(a.nodeId * 100));
    }
    Set<Integer> ids = new java.util.HashSet<>(upstream.keySet());
    core.schedule(
        new Command(
            j.addCommandId,
            new Mutation.Add(ids, upstream, Map.of(), committedPaused),
            topology(true)));
  }

  private void applyCommittedMutation(Mutation m) {
    if (m instanceof Mutation.Pause) {
      committedPaused = true;
    } else if (m instanceof Mutation.Resume) {
      committedPaused = false;
    } else if (m instanceof Mutation.Throttle t) {
      t.rowsPerSecondByActor()
          .forEach(
              (a, r) -> {
                if (r < 0) {
                  committedLimits.remove(a);
                } else {
                  committedLimits.put(a, r);
                }
              });
    }
  }

  private void tryRecover(int inc) {
    if (inc != metaIncarnation || !core.isRecovering()) {
      return;
    }
    if (nodes.stream().anyMatch(n -> !n.up)) {
      scheduler.after(100, "meta recovery waits for nodes", () -> tryRecover(inc));
      return;
    }
    collectedBy.clear();
    for (SimNode n : nodes) {
      n.reset(core.generation());
      rebuildActors(n);
    }
    core.recovered(topology());
  }

  void metaOnCompleted(int inc, BarrierCompleted<String> c) {
    if (inc == metaIncarnation) {
      core.onCompleted(c);
    }
  }

  void metaOnFailure(int inc, NodeFailure f) {
    if (inc == metaIncarnation) {
      core.onNodeFailure(f);
    }
  }

  // ------------------------------------------------------------------ actors

  void sourceProcesses(SimNode node, Barrier b) {
    if (b.mutation() instanceof Mutation.Pause) {
      node.sourcePaused = true;
    } else if (b.mutation() instanceof Mutation.Resume) {
      node.sourcePaused = false;
    }
    for (SimBackfillActor a : node.backfills) {
      if (b.mutation() instanceof Mutation.Add add && add.actors().contains(a.actorId)) {
        a.active = true;
        a.paused = node.sourcePaused;
        a.rateLimit = -1;
      }
      if (!a.active) {
        continue;
      }
      node.deliver(
          a.inbox,
          "backfill " + a.actorId + " gets " + b.curr(),
          () -> backfillProcesses(node, a, b));
    }
    SimNode mergeNode = nodes.get(0);
    int input = node.id - 1;
    // one ordered link per input; different inputs interleave freely
    mergeNode.deliver(
        mergeLinks.get(input),
        "merge input " + input + " gets " + b.curr(),
        () -> mergeReceives(mergeNode, input, b));
    collect(node, node.sourceActor, b);
  }

  private void backfillProcesses(SimNode node, SimBackfillActor a, Barrier b) {
    a.onBarrier(b, random, config.barrierIntervalMs());
    collect(node, a.actorId, b);
  }

  private void mergeReceives(SimNode node, int input, Barrier b) {
    node.mergeInputs.get(input).addLast(b);
    boolean moved = true;
    while (moved) {
      moved = false;
      for (int i = 0; i < node.mergeInputs.size(); i++) {
        ArrayDeque<Barrier> q = node.mergeInputs.get(i);
        if (!q.isEmpty() && !node.aligner.isBlocked(i)) {
          Barrier aligned = (Barrier) node.aligner.onMessage(i, q.pollFirst());
          moved = true;
          if (aligned != null) {
            node.deliver(
                node.mergeOut,
                "merge emits " + aligned.curr(),
                () -> collect(node, node.mergeActor, aligned));
          }
        }
      }
    }
  }

  private void collect(SimNode node, int actorId, Barrier b) {
    if (node.stopped || !node.up) {
      return;
    }
    if (random.chance(chaosActive() ? 0.0015 : 0)) {
      node.stopped = true;
      node.lbm.actorFailed(actorId, "injected fault at barrier " + b.curr());
      return;
    }
    collectedBy.computeIfAbsent(b.curr(), k -> new java.util.HashSet<>()).add(actorId);
    node.lbm.collect(actorId, b.epoch());
  }

  // ------------------------------------------------------------------ chaos

  boolean chaosActive() {
    return scheduler.elapsedMs() < chaosMs;
  }

  private void scheduleChaos() {
    scheduler.after(
        random.nextLong(300, 3_000),
        "chaos",
        () -> {
          if (chaosActive()) {
            chaosEvent();
            scheduleChaos();
          } else {
            calmDown();
          }
        });
  }

  private void chaosEvent() {
    double p = random.nextDouble();
    if (p < 0.2) {
      SimNode n = nodes.get(random.nextInt(nodes.size()));
      if (n.up) {
        crash(n);
      }
    } else if (p < 0.3) {
      failover();
    } else if (p < 0.38) {
      SimJob j = jobs.get(random.nextInt(jobs.size()));
      long live = j.actors.stream().mapToLong(a -> a.size).sum();
      long keys = keyCounts.get(j.tableId);
      keyCounts.put(j.tableId, keys - random.nextLong(0, keys - live + 1)); // a compaction
    } else if (p < 0.45) {
      command(random.nextBoolean() ? new Mutation.Pause() : new Mutation.Resume());
    } else if (p < 0.52) {
      jobs.stream().filter(j -> !j.deployed && !j.deploying).findFirst().ifPresent(this::create);
    } else if (p < 0.6) {
      SimJob j = jobs.get(random.nextInt(jobs.size()));
      SimBackfillActor a = j.actors.get(random.nextInt(j.actors.size()));
      long rate = random.nextBoolean() ? Mutation.Throttle.UNLIMITED : random.nextLong(0, 2_000);
      command(new Mutation.Throttle(Map.of(a.actorId, rate)));
    }
  }

  private void command(Mutation m) {
    pendingControlCommands++;
    core.schedule(new Command(nextCommandId++, m, null));
  }

  private void crash(SimNode n) {
    n.crash();
    int inc = metaIncarnation;
    scheduler.after(
        random.nextLong(100, 800),
        "meta detects node " + n.id + " lost",
        () -> {
          if (inc == metaIncarnation) {
            core.onNodeLost(n.id, "heartbeat timeout");
          }
        });
    scheduler.after(
        random.nextLong(200, 2_000),
        "node " + n.id + " restarts",
        () -> {
          n.restart();
          if (inc == metaIncarnation) {
            core.onNodeLost(n.id, "node rejoined with a new incarnation");
          }
        });
  }

  private void failover() {
    failovers++;
    jobs.forEach(
        j -> j.deploying = false); // the old leader's queued and in-flight CREATEs are gone
    startMeta(core.generation() + 1);
  }

  /** End of chaos: undo pauses and throttles until they are committed. */
  private void calmDown() {
    if (scheduler.elapsedMs() > maxMs || jobs.stream().allMatch(j -> j.created)) {
      return;
    }
    jobs.stream().filter(j -> !j.deployed && !j.deploying).findFirst().ifPresent(this::create);
    if (!core.isRecovering() && pendingControlCommands <= 0) {
      if (committedPaused) {
        command(new Mutation.Resume());
      } else if (!committedLimits.isEmpty()) {
        Map<Integer, Long> unlimited = new HashMap<>();
        committedLimits.keySet().forEach(a -> unlimited.put(a, Mutation.Throttle.UNLIMITED));
        command(new Mutation.Throttle(unlimited));
      }
    }
    scheduler.after(1_000, "calm down", this::calmDown);
  }

  // ------------------------------------------------------------------ run

  /** Runs until every job is created or the time budget is spent; checks invariants throughout. */
  void run() {
    scheduleChaos();
    while (scheduler.elapsedMs() <= maxMs && !jobs.stream().allMatch(j -> j.created)) {
      if (!scheduler.step()) {
        break;
      }
      invariants.afterEvent();
    }
    invariants.atEnd();
  }
}
