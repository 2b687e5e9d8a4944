package dev.tideway.cli.cluster;

import dev.tideway.common.check.Checks;
import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.compute.MetaWiring;
import dev.tideway.meta.endpoint.MetaEndpoint;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.cluster.PekkoMember;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.protocol.meta.MetaProtocol;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletionStage;
import org.apache.curator.framework.CuratorFramework;
import org.apache.pekko.actor.typed.Props;

/**
 * One {@code tideway meta} process: a Pekko member (role {@code meta}) that joins the leader
 * election; while it leads it runs the barrier loop against the compute nodes and commits versions
 * to the state store, which it opens as the version owner. Frontends reach it through its {@link
 * MetaEndpoint}.
 */
public final class MetaProcess implements AutoCloseable {
  /**
   * How to start.
   *
   * @param storeUrl the state store every process of the cluster opens ({@code file:///...})
   * @param barrierIntervalMs 0 follows the cluster's system parameters
   * @param zkSessionTimeoutMs the election's ZooKeeper session: a crashed leader's lead outlives it
   *     by at most one ZooKeeper tick, so it bounds the failover time
   * @param advertiseHost the address peers reach this process at ({@code host}, the bind address,
   *     when null)
   */
  public record Options(
      String zookeeper,
      String clusterId,
      String participantId,
      String host,
      int pekkoPort,
      int httpPort,
      String storeUrl,
      long barrierIntervalMs,
      int zkSessionTimeoutMs,
      String advertiseHost) {
    /** The default session (10 s, as RisingWave's meta leader lease). */
    public static final int DEFAULT_ZK_SESSION_TIMEOUT_MS = 10_000;

    public Options {
      advertiseHost = advertiseHost == null ? host : advertiseHost;
      Checks.checkArgument(
          zkSessionTimeoutMs >= 1000,
          "zk session timeout must be >= 1000 ms, got %s",
          zkSessionTimeoutMs);
    }
  }

  private final Deque<AutoCloseable> closers = new ArrayDeque<>();
  private MetaServer meta;
  private PekkoMember member;
  private Storage storage;

  private MetaProcess() {}

  public static MetaProcess start(Options o, Clock clock) throws Exception {
    MetaProcess p = new MetaProcess();
    try {
      p.startAll(o, clock);
      return p;
    } catch (Exception | Error e) {
      p.close();
      throw e;
    }
  }

  private void startAll(Options o, Clock clock) throws Exception {
    CuratorFramework zk = Zk.connect(o.zookeeper(), 15_000);
    closers.push(zk);
    member =
        PekkoMember.start(
            o.host(), o.advertiseHost(), o.pekkoPort(), "meta", zk, "/tideway", 60_000, clock);
    closers.push(member);
    storage = StateStores.open(o.storeUrl(), StorageOptions.defaults(), StorageRole.versionOwner());
    closers.push(storage);
    PlanCodec codec = KryoPlanCodec.create();
    ComputeBridge bridge = new ComputeBridge(member.system(), "meta-bridge");
    closers.push(bridge);
    MetaConfig mc =
        new MetaConfig(
            o.clusterId(),
            o.zookeeper(),
            o.participantId(),
            member.address(),
            o.host(),
            o.httpPort(),
            o.zkSessionTimeoutMs(),
            15_000,
            // the config file (TIDEWAY_CONFIG) or TIDEWAY_META_HTTP_CONTROL_ALLOWED
            TidewayConfig.ofProcess().getStringList(MetaConfig.CONTROL_ALLOWED_KEY));
    meta =
        MetaServer.start(
            mc,
            codec,
            clock,
            MetaWiring.of(
                bridge, codec, storage, o.storeUrl(), o.barrierIntervalMs(), true, clock));
    closers.push(meta);
    member.arbiter(meta::isLeader);
    member.system().systemActorOf(MetaEndpoint.create(meta), MetaProtocol.ENDPOINT, Props.empty());
  }

  public MetaServer meta() {
    return meta;
  }

  /** The state store this process owns the versions of (for tools and tests). */
  public Storage storage() {
    return storage;
  }

  public String address() {
    return member.address();
  }

  /**
   * Completes when this process's actor system has terminated: after {@link #close()}, or when the
   * cluster downed this member (the process is then of no use and should exit).
   */
  public CompletionStage<?> terminated() {
    return member.system().getWhenTerminated();
  }

  @Override
  public void close() throws Exception {
    Closers.closeAll(closers);
  }
}
