package dev.tideway.barrier.sim;

import dev.tideway.barrier.align.BarrierAligner;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.global.BarrierDecision;
import dev.tideway.barrier.global.Command;
import dev.tideway.barrier.global.GlobalBarrierCore;
import dev.tideway.barrier.global.NodeActors;
import dev.tideway.barrier.global.Topology;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierCompleted;
import dev.tideway.barrier.message.InjectBarrier;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.message.NodeFailure;
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
  TableStatsLookup stats;
  int recoveries;
  int failovers;
  int commits;
  int pendingControlCommands;
  long nextCommandId = 1;

  /** Source of node i+1 → merge input i: one ordered link each. */
  final List<Channel> mergeLinks = new ArrayList<>();

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
    List<TableStatsView> views = new ArrayList<>();
    for (int j = 1; j <= jobCount; j++) {
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
      views.add(v);
      SimJob job = new SimJob(j, mode, 1000 + j, v);
      for (SimNode node : nodes) {
        SimBackfillActor a =
            new SimBackfillActor(
                node.id * 100 + 10 + j, node.id, job, sizes.get(node.id - 1), perActorMax);
        a.inbox = new Channel(scheduler, random, 0, 6);
        job.actors.add(a);
        node.backfills.add(a);
      }
      jobs.add(job);
    }
    stats = TableStatsLookup.of(views);
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

  Topology topology() {
    List<NodeActors> list = new ArrayList<>();
    int[] tables = jobs.stream().mapToInt(j -> j.tableId).toArray();
    for (SimNode n : nodes) {
      list.add(new NodeActors(n.id, new int[] {n.sourceActor}, n.actorsToCollect(), tables));
    }
    return new Topology(list);
  }

  private void rebuildActors(SimNode node) {
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
      for (SimJob j : jobs) {
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
    for (Mutation m : c.mutations()) {
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
    for (SimBackfillActor a : node.backfills) {
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
    } else if (p < 0.45) {
      command(random.nextBoolean() ? new Mutation.Pause() : new Mutation.Resume());
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
    startMeta(core.generation() + 1);
  }

  /** End of chaos: undo pauses and throttles until they are committed. */
  private void calmDown() {
    if (scheduler.elapsedMs() > maxMs || jobs.stream().allMatch(j -> j.created)) {
      return;
    }
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
