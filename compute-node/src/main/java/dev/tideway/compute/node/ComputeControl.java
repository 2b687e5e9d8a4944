package dev.tideway.compute.node;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.local.LocalBarrierEnvironment;
import dev.tideway.barrier.local.LocalBarrierManager;
import dev.tideway.barrier.local.SyncRequest;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.common.check.Checks;
import dev.tideway.common.check.Failures;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.ActorReporter;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.StreamActor;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.Dispatcher;
import dev.tideway.compute.exchange.ExchangeRegistry;
import dev.tideway.compute.executor.DmlChannels;
import dev.tideway.compute.node.NodeEvent.ActorCollected;
import dev.tideway.compute.node.NodeEvent.ActorExited;
import dev.tideway.compute.node.NodeEvent.ActorFailed;
import dev.tideway.compute.node.NodeEvent.CompactionEnded;
import dev.tideway.compute.node.NodeEvent.PeerLost;
import dev.tideway.compute.node.NodeEvent.ProgressReported;
import dev.tideway.compute.node.NodeEvent.SyncFailed;
import dev.tideway.compute.node.NodeEvent.SyncFinished;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest.BuildActors;
import dev.tideway.protocol.compute.ComputeRequest.Compact;
import dev.tideway.protocol.compute.ComputeRequest.DropActors;
import dev.tideway.protocol.compute.ComputeRequest.GetExpressionErrors;
import dev.tideway.protocol.compute.ComputeRequest.Inject;
import dev.tideway.protocol.compute.ComputeRequest.ResetForRecovery;
import dev.tideway.protocol.compute.ComputeRequest.WriteDml;
import dev.tideway.protocol.compute.ControlMessage;
import dev.tideway.protocol.compute.DispatchSpec;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's control loop, one Pekko actor at {@code /user/compute}: serves meta's commands (build
 * actors and add outputs to running ones, inject, drop, reset, write DML rows, run a compaction),
 * owns the barrier module's {@link LocalBarrierManager} and the node's {@link StreamActor}s, and
 * receives the actors' reports as messages. Everything mutable here is confined to this actor;
 * actor threads only {@code tell} it.
 *
 * <p>It is also the manager's {@link LocalBarrierEnvironment}: barriers go into the root actors'
 * {@link BarrierInbox}es, completions and failures go to the meta leader (the {@code replyTo} of
 * the latest command), and a checkpoint sync runs on the state store's upload pool and comes back
 * as a {@link SyncFinished} message.
 */
final class ComputeControl extends AbstractBehavior<ControlMessage>
    implements LocalBarrierEnvironment<Object> {
  /** Actor name under {@code /user}. */
  static final String NAME = "compute";

  private static final Logger LOG = LoggerFactory.getLogger(ComputeControl.class);

  /** The last generation this node reported it was never reset to (one report per generation). */
  private long missedGeneration = -1;

  private static final long DROP_JOIN_MS = 5_000;

  /** The actor id a failed sync is reported under (no actor failed; the node's store did). */
  static final int SYNC_ACTOR_ID = -1;

  private final int nodeId;
  private final ActorFactory factory;
  private final ExchangeRegistry registry;
  private final LocalBarrierManager<Object> barriers;

  /** Null when the node runs without storage: a checkpoint sync then completes with no SSTs. */
  private final StateStore store;

  private final Map<Integer, StreamActor> actors = new HashMap<>();
  private final Map<Integer, BarrierInbox> inboxes = new HashMap<>();

  /** The dispatch executor at the root of each actor, to add outputs to it later. */
  private final Map<Integer, DispatchExecutor> dispatches = new HashMap<>();

  /**
   * The node of every actor this node's actors exchange with (from builds), to act on peer loss.
   */
  private final Map<Integer, String> peerActorNodes = new HashMap<>();

  /**
   * Reports of epochs not injected here yet, in arrival order. An actor fed only by actors of other
   * nodes (a view on a table elsewhere) can receive a barrier through the exchange before meta's
   * inject for it reaches this node; its collect (and progress) wait here until the inject.
   */
  private final ArrayDeque<ControlMessage> early = new ArrayDeque<>();

  /** The {@code curr} epoch of the latest barrier injected in this generation, or -1. */
  private long injectedCurr = -1;

  private final ComputeMetrics metrics;
  private final Clock clock;

  /** When each in-flight epoch ({@code curr}) was injected here, for the latency histogram. */
  private final Map<Long, Long> injectedAtNanos = new HashMap<>();

  /** When each running checkpoint sync ({@code curr}) started. */
  private final Map<Long, Long> syncStartedNanos = new HashMap<>();

  /** Where completions and failures go: the replyTo of the latest meta command. */
  private ActorRef<ComputeEvent> meta;

  /** This node's heap and compaction tasks, added to each checkpoint's reports. */
  private final NodeReports reports;

  static Behavior<ControlMessage> create(
      int nodeId,
      ActorFactory factory,
      ExchangeRegistry reg,
      StateStore store,
      ComputeMetrics metrics,
      Clock clock) {
    return Behaviors.setup(
        ctx -> new ComputeControl(ctx, nodeId, factory, reg, store, metrics, clock));
  }

  private ComputeControl(
      ActorContext<ControlMessage> ctx,
      int nodeId,
      ActorFactory factory,
      ExchangeRegistry reg,
      StateStore store,
      ComputeMetrics metrics,
      Clock clock) {
    super(ctx);
    this.metrics = metrics;
    this.clock = clock;
    this.store = store;
    subscribeToPeerLoss(ctx);
    this.nodeId = nodeId;
    this.factory = factory;
    this.registry = reg;
    this.barriers = new LocalBarrierManager<>(nodeId, this);
    this.reports = new NodeReports(nodeId, clock, metrics.registry());
  }

  @Override
  public Receive<ControlMessage> createReceive() {
    return newReceiveBuilder()
        .onMessage(BuildActors.class, guarded(this::onBuild))
        .onMessage(Inject.class, guarded(this::onInject))
        .onMessage(DropActors.class, guarded(this::onDrop))
        .onMessage(ResetForRecovery.class, guarded(this::onReset))
        .onMessage(WriteDml.class, guarded(this::onWriteDml))
        .onMessage(Compact.class, guarded(this::onCompact))
        .onMessage(CompactionEnded.class, guarded(this::onCompactionEnded))
        .onMessage(ActorCollected.class, guarded(this::onCollected))
        .onMessage(ActorExited.class, guarded(this::onExited))
        .onMessage(ProgressReported.class, guarded(this::onProgress))
        .onMessage(ActorFailed.class, guarded(this::onActorFailed))
        .onMessage(SyncFinished.class, guarded(this::onSyncFinished))
        .onMessage(SyncFailed.class, guarded(this::onSyncFailed))
        .onMessage(PeerLost.class, guarded(this::onPeerLost))
        .onMessage(GetExpressionErrors.class, this::onGetExpressionErrors)
        .build();
  }

  /**
   * {@code handler}, except that a failure (an invariant of the barrier protocol broken by a
   * message) fails this node's in-flight epochs instead of stopping the control actor: meta then
   * recovers the world, and this node keeps serving. A stopped control actor would leave a node
   * that answers nothing.
   */
  private <T extends ControlMessage>
      org.apache.pekko.japi.function.Function<T, Behavior<ControlMessage>> guarded(
          org.apache.pekko.japi.function.Function<T, Behavior<ControlMessage>> handler) {
    return m -> {
      try {
        return handler.apply(m);
      } catch (RuntimeException e) {
        LOG.error(
            "node {}: handling {} failed; failing this node's epochs so meta recovers",
            nodeId,
            m.getClass().getSimpleName(),
            e);
        failNode(m.getClass().getSimpleName() + " failed: " + e.getMessage());
        return this;
      }
    };
  }

  private void failNode(String reason) {
    try {
      barriers.actorFailed(SYNC_ACTOR_ID, reason);
    } catch (RuntimeException again) {
      if (meta != null) {
        meta.tell(
            new ComputeEvent.Failed(
                new dev.tideway.barrier.control.NodeFailure(
                    nodeId, barriers.generation(), SYNC_ACTOR_ID, reason, List.of())));
      }
    }
  }

  private Behavior<ControlMessage> onBuild(BuildActors cmd) {
    meta = cmd.replyTo();
    List<StreamActor> built = new ArrayList<>();
    List<Runnable> attach = new ArrayList<>();
    try {
      for (ActorSpec spec : cmd.actors()) {
        BarrierInbox inbox = new BarrierInbox(spec.actorId());
        ActorFactory.Built b = factory.build(spec, inbox, cmd.actorNodes(), progressSink());
        StreamActor a =
            new StreamActor(
                spec.actorId(), spec.jobId(), b.root(), reporter(), b.resources(), b.inputBell());
        inboxes.put(spec.actorId(), inbox);
        actors.put(spec.actorId(), a);
        dispatches.put(spec.actorId(), b.dispatch());
        built.add(a);
      }
      cmd.newOutputs().forEach((up, specs) -> attach.addAll(newOutputs(up, specs, cmd)));
    } catch (RuntimeException e) {
      LOG.warn("node {}: build {} failed", nodeId, cmd.requestId(), e);
      for (ActorSpec spec : cmd.actors()) {
        forget(spec.actorId()); // also the channels of the actor whose build threw
      }
      forgetNewOutputs(cmd);
      cmd.replyTo()
          .tell(new ComputeEvent.CommandFailed(nodeId, cmd.requestId(), String.valueOf(e)));
      return this;
    }
    peerActorNodes.putAll(cmd.actorNodes());
    attach.forEach(Runnable::run);
    built.forEach(StreamActor::start);
    metrics.actorsRunning(actors.size());
    cmd.replyTo().tell(new ComputeEvent.Ack(nodeId, cmd.requestId()));
    return this;
  }

  /**
   * Creates the channels of new outputs of running actor {@code upstream}; returns the steps that
   * hand them to its dispatch executor (run once the whole command succeeded).
   */
  private List<Runnable> newOutputs(int upstream, List<DispatchSpec> specs, BuildActors cmd) {
    DispatchExecutor d = dispatches.get(upstream);
    StreamActor a = actors.get(upstream);
    Checks.checkArgument(
        d != null && a != null && a.status() == StreamActor.Status.RUNNING,
        "node %s: cannot add outputs %s to actor %s: it is not running here",
        nodeId,
        specs,
        upstream);
    List<Runnable> steps = new ArrayList<>();
    for (DispatchSpec spec : specs) {
      Dispatcher out = factory.newOutput(upstream, d.schema(), spec, cmd.actorNodes());
      steps.add(() -> d.addOnBarrier(out));
    }
    return steps;
  }

  /** Removes the channels a failed build created for new outputs. */
  private void forgetNewOutputs(BuildActors cmd) {
    cmd.newOutputs()
        .forEach(
            (up, specs) -> {
              for (DispatchSpec spec : specs) {
                for (int down : spec.downstreamActors()) {
                  registry.removeChannel(ChannelId.of(up, down));
                }
              }
            });
  }

  /**
   * Queues the chunk for its actor; the answer goes out once the actor took it (from the actor
   * thread), naming the epoch it joined and this generation, or fails when the chunk was discarded
   * first (from the thread that discarded it): then it is in no epoch and may be sent again.
   */
  private Behavior<ControlMessage> onWriteDml(WriteDml cmd) {
    DmlChannels.Written w;
    try {
      w = factory.dmlChannels().write(cmd.tableId(), cmd.actorId(), cmd.chunk());
    } catch (RuntimeException e) {
      cmd.replyTo()
          .tell(
              new ComputeEvent.CommandFailed(
                  nodeId, cmd.requestId(), "node " + nodeId + ": " + e.getMessage()));
      return this;
    }
    long generation = barriers.generation();
    w.epoch()
        .whenComplete(
            (epoch, failure) ->
                cmd.replyTo()
                    .tell(
                        failure == null
                            ? new ComputeEvent.DmlWritten(
                                nodeId, cmd.requestId(), w.rows(), generation, epoch)
                            : new ComputeEvent.CommandFailed(
                                nodeId,
                                cmd.requestId(),
                                "node "
                                    + nodeId
                                    + ": write discarded: "
                                    + Failures.rootMessage(failure))));
    return this;
  }

  /** Runs the job on the store's compactor pool; the answer comes back as a message. */
  private Behavior<ControlMessage> onCompact(Compact cmd) {
    ActorRef<ControlMessage> self = getContext().getSelf();
    if (store == null) {
      self.tell(new CompactionEnded(cmd.requestId(), null, "no state store", cmd.replyTo()));
      return this;
    }
    reports
        .track(store.compact(cmd.job()))
        .whenComplete(
            (outcome, err) ->
                self.tell(
                    new CompactionEnded(
                        cmd.requestId(),
                        outcome,
                        err == null ? null : String.valueOf(err),
                        cmd.replyTo())));
    return this;
  }

  private Behavior<ControlMessage> onCompactionEnded(CompactionEnded e) {
    if (e.outcome() == null) {
      LOG.warn("node {}: compaction {} failed: {}", nodeId, e.requestId(), e.failure());
      e.replyTo()
          .tell(
              new ComputeEvent.CommandFailed(
                  nodeId, e.requestId(), "node " + nodeId + ": compaction failed: " + e.failure()));
    } else {
      e.replyTo().tell(new ComputeEvent.Compacted(nodeId, e.requestId(), e.outcome()));
    }
    return this;
  }

  private Behavior<ControlMessage> onInject(Inject cmd) {
    meta = cmd.replyTo();
    long g = cmd.inject().generation();
    if (g > barriers.generation()) {
      // This node missed the reset that started generation g (it joined the cluster after it),
      // so it cannot take part: say so in g's terms, or meta drops the report as stale and waits
      // out a whole collect timeout before it recovers and resets this node too.
      if (missedGeneration != g) {
        missedGeneration = g;
        LOG.warn(
            "node {}: barrier of generation {} before any reset to it; asking for one", nodeId, g);
        meta.tell(
            new ComputeEvent.Failed(
                new dev.tideway.barrier.control.NodeFailure(
                    nodeId,
                    g,
                    SYNC_ACTOR_ID,
                    "node " + nodeId + " was not reset to generation " + g + " (it joined later)",
                    List.of(cmd.inject().barrier().curr()))));
      }
      return this;
    }
    injectedAtNanos.put(cmd.inject().barrier().curr(), clock.nanoTime());
    barriers.inject(cmd.inject());
    injectedCurr = cmd.inject().barrier().curr();
    replayEarlyReports();
    return this;
  }

  /** Hands the manager the early reports whose epoch is now injected, keeping their order. */
  private void replayEarlyReports() {
    int n = early.size();
    for (int i = 0; i < n; i++) {
      ControlMessage c = early.poll();
      if (c instanceof ActorCollected e && e.epoch().curr() <= injectedCurr) {
        barriers.collect(e.actorId(), e.epoch());
      } else if (c instanceof ProgressReported p && p.epoch().curr() <= injectedCurr) {
        barriers.reportProgress(p.epoch(), p.actorId(), p.code(), p.a(), p.rows());
      } else {
        early.add(c);
      }
    }
  }

  private Behavior<ControlMessage> onDrop(DropActors cmd) {
    meta = cmd.replyTo();
    dropAll(cmd.actors());
    dispatches.values().forEach(d -> d.cancelPending(cmd.actors()));
    cmd.replyTo().tell(new ComputeEvent.Ack(nodeId, cmd.requestId()));
    return this;
  }

  private Behavior<ControlMessage> onReset(ResetForRecovery cmd) {
    meta = cmd.replyTo();
    logStuckActors();
    dropAll(Set.copyOf(actors.keySet()));
    registry.clear();
    factory.dmlChannels().clear();
    peerActorNodes.clear();
    if (store != null) {
      store.clearUncommitted();
      String behind = StoreCatchUp.await(store, cmd.committedEpoch(), clock, nodeId);
      if (behind != null) {
        cmd.replyTo().tell(new ComputeEvent.CommandFailed(nodeId, cmd.requestId(), behind));
        return this;
      }
    }
    barriers.reset(cmd.generation());
    early.clear();
    injectedCurr = -1;
    injectedAtNanos.clear();
    syncStartedNanos.clear();
    cmd.replyTo().tell(new ComputeEvent.Ack(nodeId, cmd.requestId()));
    return this;
  }

  /**
   * Before a reset drops them, logs where each actor that has not collected the oldest in-flight
   * epoch is (its thread's stack): after a collect timeout this is the one record of what the
   * barrier waited for.
   */
  private void logStuckActors() {
    Map.Entry<Long, List<Integer>> stuck = barriers.oldestUncollected();
    if (stuck == null) {
      return;
    }
    if (stuck.getValue().isEmpty()) {
      LOG.warn(
          "node {}: reset with epoch {} collected, waiting for its sync", nodeId, stuck.getKey());
      return;
    }
    for (int actorId : stuck.getValue()) {
      StreamActor a = actors.get(actorId);
      StringBuilder where = new StringBuilder();
      StackTraceElement[] stack = a == null ? new StackTraceElement[0] : a.stackTrace();
      for (int i = 0; i < Math.min(stack.length, 24); i++) {
        where.append("\n    at ").append(stack[i]);
      }
      LOG.warn(
          "node {}: reset while actor {} has not collected epoch {} ({}):{}",
          nodeId,
          actorId,
          stuck.getKey(),
          a == null ? "not running" : a.status(),
          where);
    }
  }

  private Behavior<ControlMessage> onGetExpressionErrors(GetExpressionErrors g) {
    List<ExpressionErrorCount> counts = factory.expressionErrors().counts();
    g.replyTo().tell(new ComputeEvent.ExpressionErrors(nodeId, g.requestId(), counts));
    return this;
  }

  private Behavior<ControlMessage> onCollected(ActorCollected e) {
    if (e.epoch().curr() > injectedCurr || !early.isEmpty()) {
      early.add(e);
      replayEarlyReports();
      return this;
    }
    barriers.collect(e.actorId(), e.epoch());
    return this;
  }

  private Behavior<ControlMessage> onProgress(ProgressReported p) {
    if (p.epoch().curr() > injectedCurr || !early.isEmpty()) {
      early.add(p);
      replayEarlyReports();
      return this;
    }
    barriers.reportProgress(p.epoch(), p.actorId(), p.code(), p.a(), p.rows());
    return this;
  }

  private Behavior<ControlMessage> onExited(ActorExited e) {
    LOG.debug("node {}: actor {} exited (stopped={})", nodeId, e.actorId(), e.stopped());
    forget(e.actorId());
    return this;
  }

  private Behavior<ControlMessage> onActorFailed(ActorFailed e) {
    LOG.warn("node {}: actor {} failed: {}", nodeId, e.actorId(), e.reason());
    // a failed actor's queued writes fail now (resent to its rebuilt self), not at a timeout
    factory.dmlChannels().removeActor(e.actorId());
    barriers.actorFailed(e.actorId(), e.reason());
    return this;
  }

  private Behavior<ControlMessage> onSyncFinished(SyncFinished e) {
    Long started = syncStartedNanos.remove(e.curr());
    if (started != null) {
      metrics.syncFinished(clock.nanoTime() - started);
    }
    barriers.onSyncCompleted(e.curr(), e.generation(), e.result());
    return this;
  }

  /**
   * A peer left or became unreachable: every remote input fed by an actor on it fails, so the
   * merges reading them fail their actors and the in-flight epochs fail (outputs towards it fail by
   * the credit stall timeout).
   */
  private Behavior<ControlMessage> onPeerLost(PeerLost e) {
    Set<Integer> lost = new HashSet<>();
    peerActorNodes.forEach(
        (actor, node) -> {
          if (node.equals(e.address())) {
            lost.add(actor);
          }
        });
    if (!lost.isEmpty()) {
      LOG.warn(
          "node {}: peer {} lost ({}); failing channels from actors {}",
          nodeId,
          e.address(),
          e.why(),
          lost);
      registry.failInputsFrom(lost, "peer " + e.address() + " " + e.why());
    }
    return this;
  }

  private void subscribeToPeerLoss(ActorContext<ControlMessage> ctx) {
    var subscriptions = Cluster.get(ctx.getSystem()).subscriptions();
    subscriptions.tell(
        Subscribe.create(
            ctx.messageAdapter(
                ClusterEvent.MemberRemoved.class,
                m -> new PeerLost(m.member().address().toString(), "was removed")),
            ClusterEvent.MemberRemoved.class));
    subscriptions.tell(
        Subscribe.create(
            ctx.messageAdapter(
                ClusterEvent.UnreachableMember.class,
                m -> new PeerLost(m.member().address().toString(), "is unreachable")),
            ClusterEvent.UnreachableMember.class));
  }

  private Behavior<ControlMessage> onSyncFailed(SyncFailed e) {
    if (e.generation() == barriers.generation()) {
      LOG.warn("node {}: sync of epoch {} failed: {}", nodeId, e.curr(), e.reason());
      barriers.actorFailed(SYNC_ACTOR_ID, "state store sync failed: " + e.reason());
    }
    return this;
  }

  private void dropAll(Set<Integer> ids) {
    for (int id : ids) {
      StreamActor a = actors.get(id);
      if (a == null) {
        continue;
      }
      try {
        if (!a.drop(DROP_JOIN_MS)) {
          LOG.warn("node {}: actor {} did not exit within {} ms", nodeId, id, DROP_JOIN_MS);
        }
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
      forget(id);
    }
  }

  private void forget(int actorId) {
    actors.remove(actorId);
    inboxes.remove(actorId);
    dispatches.remove(actorId);
    factory.dmlChannels().removeActor(actorId);
    registry.removeActor(actorId);
    metrics.actorsRunning(actors.size());
  }

  /** Progress from actor threads becomes messages to this actor (same order as their barriers). */
  private ProgressSink progressSink() {
    ActorRef<ControlMessage> self = getContext().getSelf();
    return (epoch, actorId, code, a, rows) ->
        self.tell(new ProgressReported(epoch, actorId, code, a, rows));
  }

  /** Reports from actor threads become messages to this actor. */
  private ActorReporter reporter() {
    ActorRef<ControlMessage> self = getContext().getSelf();
    return new ActorReporter() {
      @Override
      public void barrierCollected(int actorId, Barrier barrier) {
        self.tell(new ActorCollected(actorId, barrier.epoch()));
      }

      @Override
      public void actorExited(int actorId, boolean stopped) {
        self.tell(new ActorExited(actorId, stopped));
      }

      @Override
      public void actorFailed(int actorId, Throwable cause) {
        self.tell(new ActorFailed(actorId, String.valueOf(cause)));
      }
    };
  }

  // ---- LocalBarrierEnvironment: called by the manager on this actor ----

  @Override
  public void sendBarrier(int actorId, Barrier barrier) {
    BarrierInbox inbox = inboxes.get(actorId);
    if (inbox == null) {
      getContext().getSelf().tell(new ActorFailed(actorId, "no such actor on node " + nodeId));
      return;
    }
    inbox.push(barrier);
  }

  @Override
  public void sync(SyncRequest request) {
    long curr = request.epoch().curr();
    long gen = request.generation();
    collectedAll(curr);
    syncStartedNanos.put(curr, clock.nanoTime());
    ActorRef<ControlMessage> self = getContext().getSelf();
    if (store == null) {
      // No state store: nothing to write; answer as a message, the manager expects it later.
      self.tell(new SyncFinished(curr, gen, SyncResult.empty()));
      return;
    }
    // The store syncs on its upload pool; the answer comes back as a message to this actor.
    store
        .sync(request.epoch().prev())
        .whenComplete(
            (r, err) ->
                self.tell(
                    err == null
                        ? new SyncFinished(curr, gen, NodeReports.toBarrierResult(r))
                        : new SyncFailed(curr, gen, String.valueOf(err))));
  }

  /** Every actor here collected epoch {@code curr}: observe its inject → collect latency. */
  private void collectedAll(long curr) {
    Long injected = injectedAtNanos.remove(curr);
    if (injected != null) {
      metrics.barrierCollected(clock.nanoTime() - injected);
    }
  }

  @Override
  public void completed(BarrierCompleted<Object> completed) {
    collectedAll(completed.epoch().curr()); // a barrier without sync; no-op after a sync
    if (meta != null) {
      meta.tell(new ComputeEvent.Completed(reports.appendTo(completed)));
    }
  }

  @Override
  public void failed(NodeFailure failure) {
    if (meta != null) {
      meta.tell(new ComputeEvent.Failed(failure));
    }
  }
}
