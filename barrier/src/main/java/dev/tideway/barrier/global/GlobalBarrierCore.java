package dev.tideway.barrier.global;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The meta-side core of the barrier protocol: pure decisions, no I/O.
 *
 * <p>Overview: {@link #tick} injects a barrier when the interval elapsed or a command waits, unless
 * {@code maxInflightBarriers} are uncompleted. A barrier is a checkpoint when the checkpoint
 * frequency is reached, a checkpoint was requested, or its command forces one. {@link #onCompleted}
 * records one node's answer; when the <i>oldest</i> in-flight barrier has every answer it
 * completes, and so on in epoch order: a checkpoint yields {@link BarrierDecision.CommitEpoch} with
 * everything gathered since the previous checkpoint; other barriers yield {@link
 * BarrierDecision.Collected} and their progress waits, so progress is only ever applied for
 * committed epochs. A node failure, a lost node or a collect timeout yields {@link
 * BarrierDecision.StartRecovery}: in-flight and uncommitted epochs are dropped, the generation
 * rises (answers of older generations are ignored), and {@link #recovered} restarts the world with
 * an INITIAL barrier whose prev is the last committed epoch. The core starts in that recovering
 * state; the shell calls {@link #recovered} once the cluster is up.
 *
 * <p>Confined to the meta barrier loop's thread; decisions go to the consumer synchronously, in
 * order.
 *
 * @param <S> the storage engine's SST info type (opaque here)
 */
public final class GlobalBarrierCore<S> {
  private final BarrierConfig config;
  private final Clock clock;
  private final Consumer<BarrierDecision<S>> decisions;

  private Topology topology = new Topology(List.of());
  private final ArrayDeque<InflightBarrier<S>> inflight = new ArrayDeque<>();
  private final ArrayDeque<Command> commands = new ArrayDeque<>();

  /** Gathered from completed non-checkpoint epochs; committed with the next checkpoint. */
  private final List<Long> pendingPrevs = new ArrayList<>();

  private final List<ProgressBatch> pendingProgress = new ArrayList<>();
  private final List<Mutation> pendingMutations = new ArrayList<>();
  private final List<Long> pendingCommandIds = new ArrayList<>();

  /**
   * Actors a Stop barrier of this generation was injected into: no later barrier names them (they
   * exit once they collect it), whatever topology a command or an update brings.
   */
  private final java.util.Set<Integer> stoppedActors = new java.util.HashSet<>();

  private long generation;
  private long committedEpoch;
  private long lastInjectedCurr;
  private long lastInjectMs;
  private int uncheckpointed;
  private boolean forceCheckpoint;

  /** Non-null while recovering: why. */
  private String recovering = "startup";

  private long staleMessages;

  /**
   * @param committedEpoch the max committed epoch of the persisted version (0 for a new cluster)
   */
  public GlobalBarrierCore(
      BarrierConfig config,
      Clock clock,
      long committedEpoch,
      Consumer<BarrierDecision<S>> decisions) {
    this(config, clock, committedEpoch, decisions, 0);
  }

  /**
   * A core for a new meta leader: {@code generation} must exceed every generation the previous
   * leader used (persist it, or derive it from the leader term), so the nodes' answers to the old
   * leader are recognised as stale and every node resets before the INITIAL barrier.
   */
  public GlobalBarrierCore(
      BarrierConfig config,
      Clock clock,
      long committedEpoch,
      Consumer<BarrierDecision<S>> decisions,
      long generation) {
    this.generation = generation;
    this.config = Checks.checkNotNull(config, "barrier config");
    this.clock = Checks.checkNotNull(clock, "clock");
    this.decisions = Checks.checkNotNull(decisions, "decision consumer");
    this.committedEpoch = committedEpoch;
    this.lastInjectedCurr = committedEpoch;
  }

  /** Queues a command for the next barrier, which is injected at the next tick. */
  public void schedule(Command command) {
    commands.addLast(command);
  }

  /** Makes the next barrier a checkpoint. */
  public void requestForceCheckpoint() {
    forceCheckpoint = true;
  }

  /** Replaces the topology from the next barrier on (after a Stop committed, for example). */
  public void updateTopology(Topology newTopology) {
    this.topology = Checks.checkNotNull(newTopology, "topology").without(stoppedActors);
  }

  /** Timer: times out a stuck barrier, or injects the next one when due. */
  public void tick() {
    if (recovering != null) {
      return;
    }
    long now = clock.currentTimeMillis();
    InflightBarrier<S> oldest = inflight.peekFirst();
    if (oldest != null && now - oldest.injectedAtMs >= config.collectTimeoutMs()) {
      startRecovery(
          "collect timeout: barrier "
              + oldest.barrier.epoch()
              + " waited "
              + (now - oldest.injectedAtMs)
              + " ms for nodes "
              + oldest.waitingFor());
      return;
    }
    boolean due = !commands.isEmpty() || now - lastInjectMs >= config.barrierIntervalMs();
    if (due && inflight.size() < config.maxInflightBarriers() && hasActors()) {
      injectNext(now);
    }
  }

  /**
   * Whether the next barrier reaches any actor: the current topology's, or those of the next
   * command's topology (the first job after every job was dropped starts from an empty one).
   */
  private boolean hasActors() {
    if (topology.size() > 0) {
      return true;
    }
    Command next = commands.peekFirst();
    return next != null && next.topology() != null && next.topology().size() > 0;
  }

  private void injectNext(long now) {
    Command cmd = commands.pollFirst();
    Mutation mutation = cmd == null ? null : cmd.mutation();
    boolean checkpoint =
        forceCheckpoint
            || uncheckpointed + 1 >= config.checkpointFrequency()
            || (mutation != null && mutation.forcesCheckpoint());
    if (cmd != null && cmd.topology() != null) {
      topology = cmd.topology().without(stoppedActors);
    }
    long curr = Epoch.next(lastInjectedCurr, clock);
    Barrier b =
        new Barrier(
            new EpochPair(curr, lastInjectedCurr),
            checkpoint ? BarrierKind.CHECKPOINT : BarrierKind.BARRIER,
            mutation);
    uncheckpointed = checkpoint ? 0 : uncheckpointed + 1;
    forceCheckpoint = false;
    send(b, cmd == null ? null : cmd.id(), now);
    if (mutation instanceof Mutation.Stop stop) {
      // the Stop barrier is the last one its actors get (RisingWave's post_apply)
      stoppedActors.addAll(stop.actors());
      topology = topology.without(stop.actors());
    }
  }

  private void send(Barrier b, Long commandId, long now) {
    lastInjectedCurr = b.curr();
    lastInjectMs = now;
    inflight.addLast(new InflightBarrier<>(b, topology, now, commandId));
    List<InjectBarrier> requests = new ArrayList<>(topology.size());
    for (NodeActors n : topology.nodes()) {
      requests.add(
          new InjectBarrier(
              n.nodeId(), generation, b, n.actorsToSend(), n.actorsToCollect(), n.tablesToSync()));
    }
    decisions.accept(new BarrierDecision.Inject<>(b, generation, requests));
  }

  /** One node's answer. Answers of an older generation are stale and ignored. */
  public void onCompleted(BarrierCompleted<S> c) {
    if (c.generation() != generation || recovering != null) {
      staleMessages++;
      return;
    }
    InflightBarrier<S> target = null;
    for (InflightBarrier<S> f : inflight) {
      if (f.barrier.curr() == c.epoch().curr()) {
        target = f;
        break;
      }
    }
    Checks.checkState(
        target != null, "node %s completed %s, which is not in flight", c.nodeId(), c.epoch());
    int idx = target.topology.indexOf(c.nodeId());
    Checks.checkState(
        idx >= 0 && !target.answered[idx],
        "node %s completed %s but was not asked to or answered already",
        c.nodeId(),
        c.epoch());
    Checks.checkState(
        c.kind() == target.barrier.kind(),
        "node %s completed %s as %s, but it was injected as %s",
        c.nodeId(),
        c.epoch(),
        c.kind(),
        target.barrier.kind());
    target.answered[idx] = true;
    target.remaining--;
    target.ssts.addAll(c.syncedSsts());
    target.statsDeltas.addAll(c.statsDeltas());
    if (c.progress().size() > 0) {
      target.progress.add(c.progress());
    }
    while (!inflight.isEmpty() && inflight.peekFirst().remaining == 0) {
      complete(inflight.pollFirst());
    }
  }

  private void complete(InflightBarrier<S> f) {
    Barrier b = f.barrier;
    pendingProgress.addAll(f.progress);
    if (b.mutation() != null) {
      pendingMutations.add(b.mutation());
    }
    if (f.commandId != null) {
      pendingCommandIds.add(f.commandId);
    }
    if (!b.isCheckpoint()) {
      if (b.kind() != BarrierKind.INITIAL) {
        pendingPrevs.add(b.prev());
      }
      for (ProgressBatch p : f.progress) {
        forceCheckpoint |= p.hasFinishReport(); // a finished backfill becomes visible sooner
      }
      decisions.accept(new BarrierDecision.Collected<>(b.epoch(), b.kind()));
      return;
    }
    pendingPrevs.add(b.prev());
    committedEpoch = b.prev();
    BarrierDecision.CommitEpoch<S> commit =
        new BarrierDecision.CommitEpoch<>(
            b.epoch(),
            List.copyOf(pendingPrevs),
            f.ssts,
            mergeDeltas(f.statsDeltas),
            List.copyOf(pendingProgress),
            List.copyOf(pendingMutations),
            List.copyOf(pendingCommandIds));
    pendingPrevs.clear();
    pendingProgress.clear();
    pendingMutations.clear();
    pendingCommandIds.clear();
    decisions.accept(commit);
  }

  private static List<TableStatsDelta> mergeDeltas(List<TableStatsDelta> deltas) {
    if (deltas.size() <= 1) {
      return deltas;
    }
    java.util.Map<Integer, TableStatsDelta> byTable = new java.util.LinkedHashMap<>();
    for (TableStatsDelta d : deltas) {
      byTable.merge(
          d.tableId(),
          d,
          (x, y) ->
              new TableStatsDelta(
                  x.tableId(),
                  x.totalKeyCountDelta() + y.totalKeyCountDelta(),
                  x.liveRowDelta() + y.liveRowDelta(),
                  x.liveRowsTracked() && y.liveRowsTracked()));
    }
    return new ArrayList<>(byTable.values());
  }

  /** A node reported an actor failure. */
  public void onNodeFailure(NodeFailure f) {
    if (f.generation() != generation || recovering != null) {
      staleMessages++;
      return;
    }
    startRecovery("node " + f.nodeId() + ": " + f.reason());
  }

  /** The cluster lost a node (membership). */
  public void onNodeLost(int nodeId, String reason) {
    if (recovering == null && topology.contains(nodeId)) {
      startRecovery("node " + nodeId + " lost: " + reason);
    }
  }

  private void startRecovery(String reason) {
    recovering = reason;
    generation++;
    List<Long> failed = new ArrayList<>(pendingCommandIds);
    for (InflightBarrier<S> f : inflight) {
      if (f.commandId != null) {
        failed.add(f.commandId);
      }
    }
    // queued commands carry topologies of the world being reset: the reset rebuilds from the
    // catalog
    for (Command c : commands) {
      failed.add(c.id());
    }
    commands.clear();
    inflight.clear();
    pendingPrevs.clear();
    pendingProgress.clear();
    pendingMutations.clear();
    pendingCommandIds.clear();
    uncheckpointed = 0;
    decisions.accept(
        new BarrierDecision.StartRecovery<>(reason, committedEpoch, generation, failed));
  }

  /**
   * Every node dropped uncommitted state and the actors are rebuilt: inject the INITIAL barrier
   * {@code {next, committedEpoch}} into {@code newTopology}.
   */
  public void recovered(Topology newTopology) {
    Checks.checkState(recovering != null, "recovered() while running (generation %s)", generation);
    Checks.checkArgument(newTopology.size() > 0, "recovery needs at least one node with actors");
    recovering = null;
    stoppedActors.clear();
    topology = newTopology;
    long curr = Epoch.next(Math.max(lastInjectedCurr, committedEpoch), clock);
    Barrier b = Barrier.of(new EpochPair(curr, committedEpoch), BarrierKind.INITIAL);
    send(b, null, clock.currentTimeMillis());
  }

  public long generation() {
    return generation;
  }

  /** The max committed epoch: the prev of the last committed checkpoint barrier. */
  public long committedEpoch() {
    return committedEpoch;
  }

  public int inflightCount() {
    return inflight.size();
  }

  public boolean isRecovering() {
    return recovering != null;
  }

  /** Answers ignored because they belonged to an older generation or arrived while recovering. */
  public long staleMessages() {
    return staleMessages;
  }
}
