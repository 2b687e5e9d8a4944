package dev.tideway.protocol.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.time.Clock;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Cluster;

/**
 * A non-compute member of the Pekko cluster (a meta or frontend process): the compute node's Pekko
 * settings (Kryo for every message, Artery TCP, ZooKeeper-decided membership) with this process's
 * role, joined through ZooKeeper exactly as compute nodes join.
 */
public final class PekkoMember implements AutoCloseable {
  /** The actor system's name; every member of one cluster uses it. */
  public static final String SYSTEM_NAME = "tideway";

  private final ActorSystem<Void> system;
  private final ZkClusterJoin join;

  private PekkoMember(ActorSystem<Void> system, ZkClusterJoin join) {
    this.system = system;
    this.join = join;
  }

  /**
   * Starts an actor system on {@code host:port} with cluster role {@code role} and joins the
   * cluster registered under {@code zkRoot}.
   */
  public static PekkoMember start(
      String host,
      int port,
      String role,
      CuratorFramework zk,
      String zkRoot,
      long joinTimeoutMs,
      Clock clock)
      throws Exception {
    return start(host, host, port, role, zk, zkRoot, joinTimeoutMs, clock);
  }

  /**
   * As {@link #start(String, int, String, CuratorFramework, String, long, Clock)}, listening on
   * {@code bindHost} ({@code 0.0.0.0} in a pod) while peers reach it at {@code advertiseHost} (the
   * pod's stable DNS name or IP): the member's address is the advertised one.
   */
  public static PekkoMember start(
      String bindHost,
      String advertiseHost,
      int port,
      String role,
      CuratorFramework zk,
      String zkRoot,
      long joinTimeoutMs,
      Clock clock)
      throws Exception {
    // the node's configuration with its environment twins (TIDEWAY_CLUSTER_PEKKO_*)
    Config root = TidewayConfig.ofProcess().underlying();
    Config pekko =
        ConfigFactory.parseString(
                "pekko.remote.artery.canonical.hostname = \""
                    + advertiseHost
                    + "\"\npekko.remote.artery.bind.hostname = \""
                    + bindHost
                    + "\"\npekko.remote.artery.canonical.port = "
                    + port
                    + "\npekko.cluster.roles = ["
                    + role
                    + "]\npekko.cluster.jmx.multi-mbeans-in-same-jvm = on")
            .withFallback(root.getConfig("tideway.cluster.pekko").atKey("pekko"))
            .withFallback(root);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, pekko);
    try {
      ZkClusterJoin join = new ZkClusterJoin(zk, zkRoot, clock);
      Cluster cluster = Cluster.get(Adapter.toClassic(system));
      join.join(cluster, cluster.selfUniqueAddress().longUid(), joinTimeoutMs);
      return new PekkoMember(system, join);
    } catch (Exception | Error e) {
      system.terminate();
      throw e;
    }
  }

  /**
   * Makes this member the arbiter of partitions while {@code isArbiter} holds (the meta leader).
   */
  public void arbiter(java.util.function.BooleanSupplier isArbiter) {
    join.arbiter(isArbiter);
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /** This member's address ({@code pekko://tideway@host:port}). */
  public String address() {
    return Cluster.get(Adapter.toClassic(system)).selfAddress().toString();
  }

  @Override
  public void close() throws Exception {
    try {
      join.close();
      Cluster c = Cluster.get(Adapter.toClassic(system));
      c.leave(c.selfAddress());
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
