package dev.tideway.compute.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.exchange.ExchangeEndpoint;
import dev.tideway.compute.exchange.ExchangeRegistry;
import dev.tideway.compute.exchange.RemoteInput;
import dev.tideway.protocol.cluster.PekkoMember;
import dev.tideway.protocol.cluster.ZkClusterJoin;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.ControlMessage;
import dev.tideway.storage.api.StateStore;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Cluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A compute process: an actor system that joins the Pekko cluster with role {@code compute} (found
 * through ZooKeeper, {@link ZkClusterJoin}), with two actors: the exchange endpoint at {@code
 * /user/exchange} and the control loop ({@link ComputeControl}) at {@code /user/compute}, which
 * serves the meta leader's {@link ControlMessage}s.
 *
 * <p>Lifecycle: {@link #start} blocks until the node is Up and registered; {@link #close} drops
 * every actor, deregisters from ZooKeeper, leaves the cluster and terminates the system.
 */
public final class ComputeNode implements AutoCloseable {
  /** The actor system's name; every member of one cluster uses it. */
  public static final String SYSTEM_NAME = PekkoMember.SYSTEM_NAME;

  private static final Logger LOG = LoggerFactory.getLogger(ComputeNode.class);

  private final ComputeNodeConfig config;
  private final ActorSystem<Void> system;
  private final CuratorFramework zk;
  private final ZkClusterJoin join;
  private final ActorRef<ControlMessage> control;
  private final ExchangeRegistry exchange;
  private final String address;

  /** Null when {@code http-port} is -1 (no metrics endpoint). */
  private final HTTPServer http;

  private final ComputeMetrics metrics;

  /** Whether the node serves: set by its process once it is registered for the scheduler. */
  private final java.util.concurrent.atomic.AtomicBoolean ready;

  private ComputeNode(
      ComputeNodeConfig config,
      ActorSystem<Void> system,
      CuratorFramework zk,
      ZkClusterJoin join,
      ActorRef<ControlMessage> control,
      ExchangeRegistry exchange,
      ComputeMetrics metrics,
      HTTPServer http,
      java.util.concurrent.atomic.AtomicBoolean ready) {
    this.ready = ready;
    this.metrics = metrics;
    this.http = http;
    this.config = config;
    this.system = system;
    this.zk = zk;
    this.join = join;
    this.control = control;
    this.exchange = exchange;
    this.address = Cluster.get(Adapter.toClassic(system)).selfAddress().toString();
  }

  /**
   * Starts a node from {@code root} (which must contain {@code tideway.compute}, e.g. {@code
   * ConfigFactory.load()}), joins the cluster and returns once Up.
   */
  public static ComputeNode start(Config root, ExecutorBuilders builders, Clock clock)
      throws Exception {
    return start(root, builders, clock, null);
  }

  /**
   * Starts a node whose executors and checkpoints use {@code stateStore} (null: no storage, a
   * checkpoint then syncs nothing).
   */
  public static ComputeNode start(
      Config root, ExecutorBuilders builders, Clock clock, StateStore stateStore) throws Exception {
    return start(
        root,
        builders,
        clock,
        stateStore,
        new io.prometheus.metrics.model.registry.PrometheusRegistry());
  }

  /**
   * As {@link #start(Config, ExecutorBuilders, Clock, StateStore)}, serving {@code metricsRegistry}
   * on {@code /metrics} (with the node's own metrics added): the registry the process opened its
   * state store with, so the storage metrics ({@code tideway_storage_*}) are served too.
   */
  public static ComputeNode start(
      Config root,
      ExecutorBuilders builders,
      Clock clock,
      StateStore stateStore,
      io.prometheus.metrics.model.registry.PrometheusRegistry metricsRegistry)
      throws Exception {
    ComputeNodeConfig cfg = ComputeNodeConfig.from(root);
    Config pekko =
        ConfigFactory.parseString(
                "pekko.remote.artery.canonical.hostname = \""
                    + cfg.host()
                    + "\"\npekko.remote.artery.canonical.port = "
                    + cfg.port())
            .withFallback(root.getConfig("tideway.compute.pekko").atKey("pekko"))
            .withFallback(root.getConfig("tideway.cluster.pekko").atKey("pekko"))
            .withFallback(root);
    CuratorFramework zk =
        CuratorFrameworkFactory.newClient(
            cfg.zookeeper(),
            (int) cfg.zkSessionTimeoutMs(),
            (int) Math.min(cfg.zkSessionTimeoutMs(), 15_000),
            new ExponentialBackoffRetry(200, 10));
    zk.start();
    ActorSystem<Void> system = null;
    HTTPServer http = null;
    try {
      if (!zk.blockUntilConnected((int) cfg.joinTimeoutMs(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("ZooKeeper " + cfg.zookeeper() + " unreachable");
      }
      LOG.info("node {}: connected to ZooKeeper {}", cfg.nodeId(), cfg.zookeeper());
      CompletableFuture<ActorRef<ControlMessage>> controlRef = new CompletableFuture<>();
      ExchangeRegistry registry = new ExchangeRegistry();
      ComputeMetrics metrics = new ComputeMetrics(registry, metricsRegistry);
      system =
          ActorSystem.create(
              guardian(cfg, builders, clock, stateStore, registry, metrics, controlRef),
              SYSTEM_NAME,
              pekko);
      ActorRef<ControlMessage> control = controlRef.get(30, TimeUnit.SECONDS);
      java.util.concurrent.atomic.AtomicBoolean ready =
          new java.util.concurrent.atomic.AtomicBoolean();
      http = startHttp(cfg, metrics, system, ready);
      LOG.info("node {}: actor system up at {}, joining", cfg.nodeId(), system.address());
      ZkClusterJoin join = new ZkClusterJoin(zk, cfg.zkRoot(), clock);
      Cluster cluster = Cluster.get(Adapter.toClassic(system));
      join.join(cluster, cluster.selfUniqueAddress().longUid(), cfg.joinTimeoutMs());
      LOG.info("node {}: Up in the cluster", cfg.nodeId());
      return new ComputeNode(cfg, system, zk, join, control, registry, metrics, http, ready);
    } catch (Exception | Error e) {
      if (http != null) {
        http.close();
      }
      if (system != null) {
        system.terminate();
      }
      zk.close();
      throw e;
    }
  }

  /**
   * Serves {@code /metrics} and the probes ({@code /health/live}, {@code /health/ready}: see {@link
   * dev.tideway.common.http.HealthHandler}) on {@code http-host:http-port}; null when the port is
   * -1.
   */
  private static HTTPServer startHttp(
      ComputeNodeConfig cfg,
      ComputeMetrics metrics,
      ActorSystem<Void> system,
      java.util.concurrent.atomic.AtomicBoolean ready)
      throws IOException {
    if (cfg.httpPort() < 0) {
      return null;
    }
    HTTPServer http =
        HTTPServer.builder()
            .hostname(cfg.httpHost())
            .port(cfg.httpPort())
            .registry(metrics.registry())
            .executorService(Threads.fixedPool("compute-http-" + cfg.nodeId(), 1))
            .defaultHandler(
                new dev.tideway.common.http.HealthHandler(
                    () -> !system.whenTerminated().isCompleted(),
                    () ->
                        ready.get()
                            ? java.util.Optional.empty()
                            : java.util.Optional.of("joining the cluster and registering")))
            .buildAndStart();
    LOG.info(
        "node {}: metrics on http://{}:{}/metrics", cfg.nodeId(), cfg.httpHost(), http.getPort());
    return http;
  }

  private static Behavior<Void> guardian(
      ComputeNodeConfig cfg,
      ExecutorBuilders builders,
      Clock clock,
      StateStore stateStore,
      ExchangeRegistry registry,
      ComputeMetrics metrics,
      CompletableFuture<ActorRef<ControlMessage>> controlRef) {
    return Behaviors.setup(
        ctx -> {
          ActorRefResolver resolver = ActorRefResolver.get(ctx.getSystem());
          String self = Cluster.get(Adapter.toClassic(ctx.getSystem())).selfAddress().toString();
          ActorFactory factory =
              new ActorFactory(
                  cfg,
                  self,
                  builders,
                  registry,
                  peer -> resolver.resolveActorRef(peer + "/user/" + ExchangeEndpoint.NAME),
                  clock,
                  stateStore,
                  metrics);
          ctx.spawn(
              ExchangeEndpoint.create(registry, c -> new RemoteInput(c, cfg.creditWindow())),
              ExchangeEndpoint.NAME);
          ActorRef<ControlMessage> control =
              ctx.spawn(
                  ComputeControl.create(
                      cfg.nodeId(), factory, registry, stateStore, metrics, clock),
                  ComputeControl.NAME);
          // DML chunks arrive on Pekko's large-message stream (tideway.cluster.pekko lists this
          // actor there), apart from the barriers and commands /user/compute takes, and go on to
          // the control loop as local messages
          ctx.spawn(
              Behaviors.<ComputeRequest.WriteDml>receiveMessage(
                  w -> {
                    control.tell(w);
                    return Behaviors.same();
                  }),
              ComputeRequest.WriteDml.DML_ACTOR);
          controlRef.complete(control);
          return Behaviors.empty();
        });
  }

  /** The node serves from now on: {@code /health/ready} answers 200. */
  public void markReady() {
    ready.set(true);
  }

  public ComputeNodeConfig config() {
    return config;
  }

  /** This node's Pekko address ({@code pekko://tideway@host:port}). */
  public String address() {
    return address;
  }

  /** The control loop's ref (local to this node's system). */
  public ActorRef<ControlMessage> control() {
    return control;
  }

  /** The node's channels (read-only use: metrics, tests). */
  public ExchangeRegistry exchange() {
    return exchange;
  }

  /** The node's metrics (also served on {@code /metrics}). */
  public ComputeMetrics metrics() {
    return metrics;
  }

  /** The port {@code /metrics} is served on, or -1 when the endpoint is off. */
  public int httpPort() {
    return http == null ? -1 : http.getPort();
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /** The control ref of the node at {@code nodeAddress}, resolved in this node's system. */
  public ActorRef<ControlMessage> controlAt(String nodeAddress) {
    return ActorRefResolver.get(system)
        .resolveActorRef(nodeAddress + "/user/" + ComputeControl.NAME);
  }

  @Override
  public void close() throws Exception {
    try {
      if (http != null) {
        http.close();
      }
      join.close();
      zk.close();
      Cluster.get(Adapter.toClassic(system))
          .leave(Cluster.get(Adapter.toClassic(system)).selfAddress());
    } finally {
      system.terminate();
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS);
    }
  }
}
