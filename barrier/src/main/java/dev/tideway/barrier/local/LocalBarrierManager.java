package dev.tideway.barrier.local;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.barrier.util.IntIntMap;
import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The compute-node core of the barrier protocol.
 *
 * <p>Overview: {@link #inject} issues a barrier: it checks the pairing per actor (the barrier's
 * {@code prev} is the {@code curr} last issued to that actor, unless it is INITIAL or the actor is
 * new), records the actors to collect, and sends it to the root actors through the environment.
 * {@link #collect} is the paired check on the way back: an actor collects its epochs in order and
 * only epochs issued to it. Progress reports ({@link #reportProgress}) must arrive for an epoch the
 * actor has been issued and not yet collected, since executors report before yielding the barrier.
 * When the oldest epochs are fully collected they move on in order: a checkpoint asks the
 * environment to sync, then {@link #onSyncCompleted} makes it ready; ready epochs are reported as
 * {@link BarrierCompleted} strictly in epoch order.
 *
 * <p>An actor failure ({@link #actorFailed}) fails every in-flight epoch with the reason and makes
 * the manager ignore the node's stragglers until meta's recovery calls {@link #reset}. Replies of
 * an older generation (a sync that finished after recovery started) are dropped.
 *
 * <p>Confined to the node's barrier loop thread (actors send it events, they never call it directly
 * from their own threads in production).
 *
 * @param <S> the storage engine's SST info type (opaque here)
 */
public final class LocalBarrierManager<S> implements ProgressSink {
  /** Fires when an epoch is fully collected, before its sync starts. */
  public static final String FP_BEFORE_SYNC = FailPoints.declare("barrier.local.before-sync");

  private final int nodeId;
  private final LocalBarrierEnvironment<S> env;
  private final IntIntMap slotOfActor = new IntIntMap(256);
  private int[] actorOfSlot = new int[256];

  /** Per slot: curr of the last barrier issued to the actor, -1 before the first. */
  private long[] lastIssued = new long[256];

  private int slots;
  private final ArrayDeque<InflightEpoch<S>> inflight = new ArrayDeque<>();
  private long generation;

  /** curr of the last injected barrier since the last reset, -1 before the first. */
  private long lastInjectedCurr = -1;

  private String failure;
  private int lastProgressSize = 16;

  /** Actors a Stop barrier injected here since the last reset stops; later barriers skip them. */
  private final java.util.Set<Integer> stopped = new java.util.HashSet<>();

  /** Times a later barrier named a stopped actor (meta's topology lagged). */
  private long skippedStopped;

  /**
   * How many times a barrier named an actor an earlier Stop barrier of this generation stopped:
   * skipped, neither sent to nor awaited (meta's topology lagged behind the Stop).
   */
  public long skippedStoppedActors() {
    return skippedStopped;
  }

  public LocalBarrierManager(int nodeId, LocalBarrierEnvironment<S> env) {
    this.nodeId = nodeId;
    this.env = Checks.checkNotNull(env, "environment");
  }

  /** A progress reporter for a backfill actor of this node. */
  public CreateMviewProgressReporter registerProgressReporter(int actorId) {
    return new CreateMviewProgressReporter(actorId, this);
  }

  private int slot(int actorId) {
    int s = slotOfActor.get(actorId, -1);
    if (s >= 0) {
      return s;
    }
    if (slots == actorOfSlot.length) {
      actorOfSlot = Arrays.copyOf(actorOfSlot, slots * 2);
      lastIssued = Arrays.copyOf(lastIssued, slots * 2);
    }
    actorOfSlot[slots] = actorId;
    lastIssued[slots] = -1;
    slotOfActor.put(actorId, slots);
    return slots++;
  }

  /** Issues an injected barrier to the node's actors. */
  public void inject(InjectBarrier req) {
    Checks.checkArgument(
        req.nodeId() == nodeId, "node %s got an inject for node %s", nodeId, req.nodeId());
    if (req.generation() < generation) {
      return; // a straggler from before the last recovery
    }
    Checks.checkState(
        req.generation() == generation,
        "node %s: inject of generation %s but the node is at %s (reset first)",
        nodeId,
        req.generation(),
        generation);
    if (failure != null) {
      return;
    }
    Barrier b = req.barrier();
    checkEpochOrder(b);
    InflightEpoch<S> e =
        new InflightEpoch<>(
            b, req.tablesToSync(), slots + req.actorsToCollect().length, lastProgressSize);
    for (int actor : req.actorsToCollect()) {
      if (stopped.contains(actor)) {
        skippedStopped++;
        continue; // exited after its Stop barrier: done, not failed
      }
      int s = slot(actor);
      Checks.checkState(
          b.kind() == BarrierKind.INITIAL || lastIssued[s] < 0 || lastIssued[s] == b.prev(),
          "node %s: actor %s is issued %s but its last issued barrier had curr %s",
          nodeId,
          actor,
          b,
          lastIssued[s]);
      Checks.checkState(
          !e.toCollect.get(s), "node %s: actor %s listed twice in %s", nodeId, actor, b);
      lastIssued[s] = b.curr();
      e.toCollect.set(s);
      e.remaining++;
    }
    inflight.addLast(e);
    if (b.mutation() instanceof dev.tideway.barrier.message.Mutation.Stop stop) {
      stopped.addAll(stop.actors()); // after this barrier's own collect list
    }
    for (int actor : req.actorsToSend()) {
      int sl = slotOfActor.get(actor, -1);
      if (stopped.contains(actor) && (sl < 0 || !e.toCollect.get(sl))) {
        continue;
      }
      Checks.checkState(
          slotOfActor.containsKey(actor) && e.toCollect.get(slotOfActor.get(actor, -1)),
          "node %s: root actor %s of %s is not among the actors to collect",
          nodeId,
          actor,
          b);
      env.sendBarrier(actor, b);
    }
    if (e.remaining == 0) {
      advance();
    }
  }

  private void checkEpochOrder(Barrier b) {
    if (lastInjectedCurr >= 0) {
      Checks.checkState(
          b.curr() > lastInjectedCurr
              && (b.kind() == BarrierKind.INITIAL || b.prev() == lastInjectedCurr),
          "node %s: injected %s does not follow the last injected barrier (curr %s)",
          nodeId,
          b,
          lastInjectedCurr);
    }
    lastInjectedCurr = b.curr();
  }

  /** {@code actorId} emitted the barrier of {@code epoch} from its last executor. */
  public void collect(int actorId, EpochPair epoch) {
    if (failure != null) {
      return;
    }
    int s = slotOfActor.get(actorId, -1);
    Checks.checkState(s >= 0, "node %s: unknown actor %s collected %s", nodeId, actorId, epoch);
    InflightEpoch<S> target = null;
    for (InflightEpoch<S> e : inflight) {
      if (e.barrier.curr() == epoch.curr()) {
        target = e;
        break;
      }
      Checks.checkState(
          !e.expects(s),
          "node %s: actor %s collected %s before the earlier epoch %s",
          nodeId,
          actorId,
          epoch,
          e.barrier.epoch());
    }
    Checks.checkState(
        target != null && target.expects(s),
        "node %s: actor %s collected %s, which was not issued to it or was collected already",
        nodeId,
        actorId,
        epoch);
    target.collected.set(s);
    target.remaining--;
    advance();
  }

  @Override
  public void reportProgress(EpochPair epoch, int actorId, byte code, long a, long rows) {
    if (failure != null) {
      return;
    }
    int s = slotOfActor.get(actorId, -1);
    for (InflightEpoch<S> e : inflight) {
      if (e.barrier.curr() == epoch.curr()) {
        Checks.checkState(
            s >= 0 && e.expects(s),
            "node %s: actor %s reported progress for %s after collecting it or without being issued it",
            nodeId,
            actorId,
            epoch);
        e.progress.add(actorId, code, a, rows);
        return;
      }
    }
    throw new dev.tideway.common.check.Checks.InvariantViolation(
        "node "
            + nodeId
            + ": actor "
            + actorId
            + " reported progress for "
            + epoch
            + ", which is not in flight on this node");
  }

  /** The environment finished the sync requested for the barrier with {@code curr}. */
  public void onSyncCompleted(long curr, long syncGeneration, SyncResult<S> result) {
    if (syncGeneration != generation || failure != null) {
      return; // the sync of an epoch lost to a failure or recovery
    }
    for (InflightEpoch<S> e : inflight) {
      if (e.barrier.curr() == curr) {
        Checks.checkState(
            e.status == InflightEpoch.Status.SYNCING,
            "node %s: sync result for %s in state %s",
            nodeId,
            e.barrier.epoch(),
            e.status);
        e.syncResult = result;
        e.status = InflightEpoch.Status.READY;
        advance();
        return;
      }
    }
    throw new dev.tideway.common.check.Checks.InvariantViolation(
        "node " + nodeId + ": sync result for epoch " + curr + ", which is not in flight");
  }

  /** Moves fully collected epochs on, in order, and reports ready ones. */
  private void advance() {
    for (InflightEpoch<S> e : inflight) {
      if (e.status != InflightEpoch.Status.COLLECTING) {
        continue;
      }
      if (e.remaining > 0) {
        break; // later epochs wait: syncs start in epoch order
      }
      if (e.barrier.isCheckpoint()) {
        FailPoints.hit(FP_BEFORE_SYNC);
        e.status = InflightEpoch.Status.SYNCING;
        env.sync(new SyncRequest(nodeId, generation, e.barrier.epoch(), e.tablesToSync));
      } else {
        e.status = InflightEpoch.Status.READY;
      }
    }
    while (!inflight.isEmpty() && inflight.peekFirst().status == InflightEpoch.Status.READY) {
      InflightEpoch<S> e = inflight.pollFirst();
      SyncResult<S> r = e.syncResult != null ? e.syncResult : SyncResult.empty();
      lastProgressSize = Math.max(16, e.progress.size());
      env.completed(
          new BarrierCompleted<>(
              nodeId,
              generation,
              e.barrier.epoch(),
              e.barrier.kind(),
              r.ssts(),
              r.statsDeltas(),
              e.progress));
    }
  }

  /** An actor of this node failed: every in-flight epoch fails with {@code reason}. */
  public void actorFailed(int actorId, String reason) {
    if (failure != null) {
      return;
    }
    failure = "actor " + actorId + " failed: " + reason;
    List<Long> lost = new ArrayList<>(inflight.size());
    for (InflightEpoch<S> e : inflight) {
      lost.add(e.barrier.curr());
    }
    inflight.clear();
    env.failed(new NodeFailure(nodeId, generation, actorId, failure, lost));
  }

  /**
   * Recovery: drops every in-flight epoch and per-actor pairing; the next barrier is meta's INITIAL
   * barrier of {@code newGeneration}. A reset to the current generation again is allowed: meta
   * retries a recovery in the same generation when another node failed its reset, and the nodes
   * that had already answered must take the retry.
   */
  public void reset(long newGeneration) {
    Checks.checkArgument(
        newGeneration >= generation,
        "node %s: reset to generation %s, below %s",
        nodeId,
        newGeneration,
        generation);
    generation = newGeneration;
    failure = null;
    stopped.clear();
    inflight.clear();
    lastInjectedCurr = -1;
    Arrays.fill(lastIssued, 0, slots, -1);
  }

  public int nodeId() {
    return nodeId;
  }

  public long generation() {
    return generation;
  }

  /** Epochs ({@code curr}) in flight, oldest first. */
  public List<Long> inflightEpochs() {
    List<Long> out = new ArrayList<>(inflight.size());
    inflight.forEach(e -> out.add(e.barrier.curr()));
    return out;
  }

  /**
   * The oldest in-flight epoch and the actors that have not collected it yet (empty when it waits
   * for its sync, not for actors); null when nothing is in flight. For diagnostics of a stall.
   */
  public Map.Entry<Long, List<Integer>> oldestUncollected() {
    InflightEpoch<S> e = inflight.peekFirst();
    if (e == null) {
      return null;
    }
    List<Integer> actors = new ArrayList<>();
    for (int slot = e.toCollect.nextSetBit(0); slot >= 0; slot = e.toCollect.nextSetBit(slot + 1)) {
      if (e.expects(slot)) {
        actors.add(actorOfSlot[slot]);
      }
    }
    return Map.entry(e.barrier.curr(), actors);
  }

  /** Why the node failed since the last reset, or null. */
  public String failure() {
    return failure;
  }
}
