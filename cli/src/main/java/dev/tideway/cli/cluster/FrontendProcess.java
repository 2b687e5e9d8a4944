package dev.tideway.cli.cluster;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.cluster.CatalogRelations;
import dev.tideway.frontend.cluster.ClusterMetaClient;
import dev.tideway.frontend.cluster.ComputeDmlWriter;
import dev.tideway.frontend.cluster.ComputeStatusClient;
import dev.tideway.frontend.cluster.RemoteMetaAccess;
import dev.tideway.frontend.cluster.StorageBatchReader;
import dev.tideway.frontend.pgwire.PgServer;
import dev.tideway.frontend.pgwire.PgServerConfig;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.cluster.PekkoMember;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletionStage;
import org.apache.curator.framework.CuratorFramework;

/**
 * One {@code tideway frontend} process: the PostgreSQL endpoint, a Pekko member (role {@code
 * frontend}) that sends DDL to the meta leader and DML to compute nodes, and reads committed data
 * from the shared state store as a follower.
 */
public final class FrontendProcess implements AutoCloseable {
  /**
   * How to start.
   *
   * @param storeSpace this process's SST id space (distinct from every compute node's id)
   * @param httpPort the probes' port ({@code /health/live}, {@code /health/ready}); -1: none
   * @param advertiseHost the address peers reach this process at ({@code host} when null)
   */
  public record Options(
      String zookeeper,
      String clusterId,
      String host,
      int pekkoPort,
      int pgPort,
      String storeUrl,
      int storeSpace,
      javax.net.ssl.SSLContext pgTls,
      int httpPort,
      String advertiseHost) {
    public Options {
      advertiseHost = advertiseHost == null ? host : advertiseHost;
    }

    /** Without TLS on the PostgreSQL port and without probes. */
    public Options(
        String zookeeper,
        String clusterId,
        String host,
        int pekkoPort,
        int pgPort,
        String storeUrl,
        int storeSpace) {
      this(zookeeper, clusterId, host, pekkoPort, pgPort, storeUrl, storeSpace, null, -1, null);
    }
  }

  private final Deque<AutoCloseable> closers = new ArrayDeque<>();
  private PgServer pg;

  private PekkoMember member;
  private volatile boolean ready;
  private com.sun.net.httpserver.HttpServer http;

  private FrontendProcess() {}

  public static FrontendProcess start(Options o, Clock clock) throws Exception {
    FrontendProcess p = new FrontendProcess();
    try {
      p.startAll(o, clock);
      return p;
    } catch (Exception | Error e) {
      p.close();
      throw e;
    }
  }

  private void startAll(Options o, Clock clock) throws Exception {
    if (o.httpPort() >= 0) {
      startProbes(o);
    }
    CuratorFramework zk = Zk.connect(o.zookeeper(), 15_000);
    closers.push(zk);
    member =
        PekkoMember.start(
            o.host(), o.advertiseHost(), o.pekkoPort(), "frontend", zk, "/tideway", 60_000, clock);
    closers.push(member);
    Storage storage =
        StateStores.open(
            o.storeUrl(), StorageOptions.defaults(), StorageRole.follower(o.storeSpace()));
    closers.push(storage);
    closers.push(StoreFollower.start(storage));
    PlanCodec codec = KryoPlanCodec.create();
    RemoteMetaAccess access = new RemoteMetaAccess(member.system(), zk, o.clusterId(), clock);
    ComputeBridge bridge = new ComputeBridge(member.system(), "frontend-bridge");
    closers.push(bridge);
    CatalogRelations relations = new CatalogRelations(codec);
    ClusterMetaClient client = new ClusterMetaClient(access, relations, storage, clock, 5_000);
    Frontend frontend =
        new Frontend(
            client,
            new StorageBatchReader(storage, id -> Playground.tableOf(client, id)),
            new ComputeDmlWriter(bridge, access, codec, clock),
            new ComputeStatusClient(bridge, access, clock));
    pg =
        new PgServer(
            PgServerConfig.defaults(o.pgPort())
                .withTls(o.pgTls())
                .withAuth(dev.tideway.frontend.pgwire.PgAuth.catalog(frontend.authUsers())),
            frontend);
    pg.start();
    closers.push(pg);
    access
        .registry()
        .register(
            new NodeInfo(
                "frontend",
                member.address(),
                clock.nanoTime(),
                Runtime.getRuntime().availableProcessors(),
                clock.currentTimeMillis()));
    closers.push(access.registry());
    ready = true;
  }

  /** Serves the probes from the start, so Kubernetes sees a starting frontend as not ready. */
  private void startProbes(Options o) throws java.io.IOException {
    http =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(o.host(), o.httpPort()), 16);
    http.createContext(
        "/",
        new dev.tideway.common.http.HealthHandler(
            () -> member == null || !member.system().whenTerminated().isCompleted(),
            () ->
                ready
                    ? java.util.Optional.empty()
                    : java.util.Optional.of("joining the cluster and opening the state store")));
    http.setExecutor(dev.tideway.common.exec.Threads.fixedPool("frontend-http", 1));
    http.start();
    closers.push(() -> http.stop(0));
  }

  /** The probes' port; -1 without them. */
  public int httpPort() {
    return http == null ? -1 : http.getAddress().getPort();
  }

  public int pgPort() {
    return pg.port();
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
