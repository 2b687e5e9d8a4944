package dev.tideway.protocol.compute;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.common.serde.SerdeException;
import dev.tideway.common.serde.TidewayPekkoSerializer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meta process's wire to the compute nodes' control actors ({@code /user/compute}): sends
 * commands over Pekko (Kryo-serialized) and turns the answers into futures (acks, by request id)
 * and callbacks (barrier completions and failures).
 *
 * <p>Node ids: meta numbers nodes by their place in the sorted node addresses of the catalog, while
 * a compute node stamps its answers with its configured id. The bridge learns each node's own id
 * from its first ack and translates both ways, so neither side depends on the other's numbering.
 *
 * <p>Thread-safe: called from the barrier loop and DDL threads; answers arrive on a Pekko actor.
 */
public final class ComputeBridge implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ComputeBridge.class);
  private static final String CONTROL_PATH = "/user/compute";

  /** The cluster role of compute nodes. */
  public static final String COMPUTE_ROLE = "compute";

  /** Receives what the nodes report (on a Pekko dispatcher thread). */
  public interface Listener {
    void completed(String node, BarrierCompleted<Object> completed);

    void failed(String node, NodeFailure failure);

    /** A cluster member left or became unreachable (pending requests to it have failed). */
    void nodeLost(String node, String why);
  }

  private final ActorSystem<?> system;
  private final ActorRef<ComputeEvent> replies;
  private final AtomicLong nextRequest = new AtomicLong(1);
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();

  /** Compute-configured node id → node address, learned from acks. */
  private final Map<Integer, String> addressOfOwnId = new ConcurrentHashMap<>();

  /** Node address → its compute-configured id. */
  private final Map<String, Integer> ownIdOf = new ConcurrentHashMap<>();

  private volatile Listener listener;

  private record Pending(String node, Object request, CompletableFuture<ComputeEvent> answer) {}

  /**
   * The longest a request waits for its answer before it fails with a {@link
   * java.util.concurrent.TimeoutException} and is forgotten: far above any caller's own wait (a
   * reset's 60 s, a compaction's minutes), so it only bounds what a caller that never gives up (a
   * fire-and-forget drop, a compaction on a node that stopped answering but stays a member) would
   * otherwise leave in the pending map for the life of the process.
   */
  public static final Duration MAX_REQUEST_LIFETIME = Duration.ofMinutes(10);

  private final Duration requestLifetime;

  public ComputeBridge(ActorSystem<?> system, String name) {
    this(system, name, MAX_REQUEST_LIFETIME);
  }

  /** A bridge whose unanswered requests fail after {@code requestLifetime}. */
  ComputeBridge(ActorSystem<?> system, String name, Duration requestLifetime) {
    this.system = system;
    this.requestLifetime = requestLifetime;
    this.replies =
        system.systemActorOf(
            Behaviors.<ComputeEvent>receiveMessage(
                e -> {
                  onEvent(e);
                  return Behaviors.same();
                }),
            name,
            Props.empty());
    ActorRef<ClusterEvent.MemberEvent> removed =
        system.systemActorOf(
            Behaviors.<ClusterEvent.MemberEvent>receiveMessage(
                e -> {
                  if (e instanceof ClusterEvent.MemberRemoved r && isCompute(r.member())) {
                    lost(r.member().address().toString(), "was removed from the cluster");
                  }
                  return Behaviors.same();
                }),
            name + "-members",
            Props.empty());
    ActorRef<ClusterEvent.ReachabilityEvent> unreachable =
        system.systemActorOf(
            Behaviors.<ClusterEvent.ReachabilityEvent>receiveMessage(
                e -> {
                  if (e instanceof ClusterEvent.UnreachableMember u && isCompute(u.member())) {
                    lost(u.member().address().toString(), "is unreachable");
                  }
                  return Behaviors.same();
                }),
            name + "-reachability",
            Props.empty());
    Cluster cluster = Cluster.get(system);
    TidewayPekkoSerializer.of(Adapter.toClassic(system)).onTooLarge(this::tooLarge);
    cluster.subscriptions().tell(Subscribe.create(removed, ClusterEvent.MemberEvent.class));
    cluster
        .subscriptions()
        .tell(Subscribe.create(unreachable, ClusterEvent.ReachabilityEvent.class));
  }

  /**
   * Only compute nodes answer the bridge: meta and frontend members coming and going are not lost
   * nodes.
   */
  private static boolean isCompute(org.apache.pekko.cluster.Member m) {
    return m.hasRole(COMPUTE_ROLE);
  }

  /**
   * A request Pekko could not fit into its frame (it dropped it): fails its future at once, naming
   * the message and its size, instead of letting the caller wait for an answer that never comes.
   */
  private void tooLarge(Object message, SerdeException e) {
    long id = requestIdOf(message);
    Pending p = id < 0 ? null : pending.get(id);
    if (p != null && p.request() == message) {
      p.answer().completeExceptionally(e);
    }
  }

  private void lost(String node, String why) {
    LOG.warn("compute node {} {}", node, why);
    nodeLost(node, why);
    Listener l = listener;
    if (l != null) {
      l.nodeLost(node, why);
    }
  }

  public void listen(Listener l) {
    this.listener = l;
  }

  /**
   * The largest message Pekko's large-message stream carries here ({@code
   * pekko.remote.artery.advanced.maximum-large-frame-size}): what a DML chunk must fit.
   */
  public long largeFrameBytes() {
    return system
        .settings()
        .config()
        .getBytes("pekko.remote.artery.advanced.maximum-large-frame-size");
  }

  /** The reply-to ref commands carry. */
  public ActorRef<ComputeEvent> replyTo() {
    return replies;
  }

  /** The node's compute-configured id, once it has answered a command. */
  public Integer ownId(String node) {
    return ownIdOf.get(node);
  }

  /**
   * Sends a command built around a fresh request id; completes with the node's answer. A caller
   * that gives up cancels the returned future, which forgets the request (a late answer is
   * dropped).
   */
  public CompletableFuture<ComputeEvent> request(
      String node, Function<Long, ComputeRequest> command) {
    long id = nextRequest.getAndIncrement();
    CompletableFuture<ComputeEvent> f = new CompletableFuture<>();
    ComputeRequest request = command.apply(id);
    pending.put(id, new Pending(node, request, f));
    f.whenComplete((r, e) -> pending.remove(id));
    f.orTimeout(requestLifetime.toMillis(), TimeUnit.MILLISECONDS);
    (request instanceof ComputeRequest.WriteDml ? dml(node) : control(node)).tell(request);
    return f;
  }

  /** Injects a barrier at {@code node}, stamped with the node's own id. */
  public void inject(String node, InjectBarrier req) {
    Integer own = ownIdOf.get(node);
    InjectBarrier stamped =
        own == null || own == req.nodeId()
            ? req
            : new InjectBarrier(
                own,
                req.generation(),
                req.barrier(),
                req.actorsToSend(),
                req.actorsToCollect(),
                req.tablesToSync());
    control(node).tell(new ComputeRequest.Inject(stamped, replies));
  }

  /** Requests sent and neither answered, failed nor cancelled yet. */
  int pendingCount() {
    return pending.size();
  }

  /** Fails every pending request to {@code node} (it left the cluster). */
  public void nodeLost(String node, String why) {
    pending.forEach(
        (id, p) -> {
          if (p.node().equals(node)) {
            p.answer().completeExceptionally(new IllegalStateException(node + " " + why));
          }
        });
  }

  private ActorRef<ComputeRequest> control(String node) {
    return ActorRefResolver.get(system).resolveActorRef(node + CONTROL_PATH);
  }

  private ActorRef<ComputeRequest> dml(String node) {
    return ActorRefResolver.get(system)
        .resolveActorRef(node + "/user/" + ComputeRequest.WriteDml.DML_ACTOR);
  }

  /** The request id a request carries, or -1 (an inject is answered by completions). */
  private static long requestIdOf(Object request) {
    if (request instanceof ComputeRequest.WriteDml w) {
      return w.requestId();
    } else if (request instanceof ComputeRequest.BuildActors b) {
      return b.requestId();
    } else if (request instanceof ComputeRequest.Compact c) {
      return c.requestId();
    } else if (request instanceof ComputeRequest.DropActors d) {
      return d.requestId();
    } else if (request instanceof ComputeRequest.ResetForRecovery r) {
      return r.requestId();
    } else if (request instanceof ComputeRequest.GetExpressionErrors g) {
      return g.requestId();
    }
    return -1;
  }

  private void onEvent(ComputeEvent e) {
    if (e instanceof ComputeEvent.Completed c) {
      String node = addressOfOwnId.get(c.nodeId());
      Listener l = listener;
      if (l != null && node != null) {
        l.completed(node, c.completed());
      } else {
        LOG.warn("completion from unknown node id {} dropped: {}", c.nodeId(), c.completed());
      }
    } else if (e instanceof ComputeEvent.Failed f) {
      String node = addressOfOwnId.get(f.nodeId());
      Listener l = listener;
      if (l != null && node != null) {
        l.failed(node, f.failure());
      } else {
        LOG.warn("failure from unknown node id {} dropped: {}", f.nodeId(), f.failure());
      }
    } else {
      long id = requestId(e);
      Pending p = pending.get(id);
      if (p == null) {
        LOG.debug("answer to unknown request {}: {}", id, e);
        return;
      }
      addressOfOwnId.put(e.nodeId(), p.node());
      ownIdOf.put(p.node(), e.nodeId());
      p.answer().complete(e);
    }
  }

  private static long requestId(ComputeEvent e) {
    if (e instanceof ComputeEvent.Ack a) {
      return a.requestId();
    }
    if (e instanceof ComputeEvent.CommandFailed f) {
      return f.requestId();
    }
    if (e instanceof ComputeEvent.DmlWritten w) {
      return w.requestId();
    }
    if (e instanceof ComputeEvent.Compacted c) {
      return c.requestId();
    }
    if (e instanceof ComputeEvent.ExpressionErrors x) {
      return x.requestId();
    }
    return -1;
  }

  @Override
  public void close() {
    pending.values().forEach(p -> p.answer().cancel(false));
  }
}
