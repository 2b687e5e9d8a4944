package dev.tideway.cli.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.node.ComputeNode;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.cluster.CatalogRelations;
import dev.tideway.frontend.cluster.ClusterMetaClient;
import dev.tideway.frontend.cluster.ComputeDmlWriter;
import dev.tideway.frontend.cluster.ComputeStatusClient;
import dev.tideway.frontend.cluster.MetaAccess;
import dev.tideway.frontend.cluster.StorageBatchReader;
import dev.tideway.frontend.pgwire.PgServer;
import dev.tideway.frontend.pgwire.PgServerConfig;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.compute.MetaWiring;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every role of a cluster in one JVM: an embedded ZooKeeper, one meta, one compute node and one
 * frontend, with all data under one directory (kept across restarts). The roles talk exactly as in
 * a cluster (Pekko + Kryo between meta and compute, ZooKeeper for metadata); they share one storage
 * engine instance, so committed versions are visible to the compute node and the frontend without a
 * refresh.
 *
 * <p>Start order: ZooKeeper → storage → compute node (Pekko member) → meta (joins the election,
 * runs the barrier loop through the node's actor system) → compute registration → frontend. {@link
 * #close} goes in reverse.
 */
public final class Playground implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Playground.class);

  /**
   * How to start.
   *
   * @param dataDir where ZooKeeper and the state store keep their files
   * @param host the address every role binds (loopback by default)
   * @param pgPort the PostgreSQL port (4566 as RisingWave)
   * @param metaHttpPort the meta HTTP API and metrics port
   * @param zkPort the embedded ZooKeeper's port
   * @param computePort the compute node's Pekko port (fixed: actor placement names it)
   * @param computeHttpPort the compute node's {@code /metrics} port (0: any free port)
   * @param barrierIntervalMs the barrier interval system parameter
   */
  public record Options(
      Path dataDir,
      String host,
      int pgPort,
      int metaHttpPort,
      int zkPort,
      int computePort,
      int computeHttpPort,
      long barrierIntervalMs,
      javax.net.ssl.SSLContext pgTls) {
    /** Without TLS on the PostgreSQL port. */
    public Options(
        Path dataDir,
        String host,
        int pgPort,
        int metaHttpPort,
        int zkPort,
        int computePort,
        int computeHttpPort,
        long barrierIntervalMs) {
      this(
          dataDir,
          host,
          pgPort,
          metaHttpPort,
          zkPort,
          computePort,
          computeHttpPort,
          barrierIntervalMs,
          null);
    }

    /** These options with TLS on the PostgreSQL port ({@code PgTls}; null: none). */
    public Options withPgTls(javax.net.ssl.SSLContext tls) {
      return new Options(
          dataDir,
          host,
          pgPort,
          metaHttpPort,
          zkPort,
          computePort,
          computeHttpPort,
          barrierIntervalMs,
          tls);
    }

    /** Options whose compute metrics port is any free one (tests, several playgrounds). */
    public Options(
        Path dataDir,
        String host,
        int pgPort,
        int metaHttpPort,
        int zkPort,
        int computePort,
        long barrierIntervalMs) {
      this(dataDir, host, pgPort, metaHttpPort, zkPort, computePort, 0, barrierIntervalMs);
    }

    public static Options defaults(Path dataDir) {
      return new Options(dataDir, "127.0.0.1", 4566, 5691, 2181, 5688, 5692, 1000);
    }
  }

  private final Deque<AutoCloseable> closers = new ArrayDeque<>();
  private final Options options;
  private PgServer pg;
  private MetaServer meta;
  private ComputeNode compute;

  private Playground(Options options) {
    this.options = options;
  }

  /** Starts every role; on failure stops what already started and rethrows. */
  public static Playground start(Options o, Clock clock) throws Exception {
    Playground p = new Playground(o);
    try {
      p.startAll(clock);
      return p;
    } catch (Exception | Error e) {
      p.close();
      throw e;
    }
  }

  private void startAll(Clock clock) throws Exception {
    Files.createDirectories(options.dataDir());
    EmbeddedZooKeeper zk =
        EmbeddedZooKeeper.start(
            options.dataDir().resolve("zookeeper"), options.host(), options.zkPort());
    closers.push(zk);
    String zkConnect = zk.connectString(options.host());
    Path storeDir = options.dataDir().resolve("store").toAbsolutePath();
    Files.createDirectories(storeDir);
    // the compute node's /metrics serves the state store's metrics too
    io.prometheus.metrics.model.registry.PrometheusRegistry metrics =
        new io.prometheus.metrics.model.registry.PrometheusRegistry();
    Storage storage =
        StateStores.open(
            storeDir.toUri().toString(), StorageOptions.defaults().withRegistry(metrics));
    closers.push(storage);
    compute =
        ComputeNode.start(
            computeConfig(zkConnect), ExecutorBuilders.discover(), clock, storage, metrics);
    closers.push(compute);
    PlanCodec codec = KryoPlanCodec.create();
    ComputeBridge bridge = new ComputeBridge(compute.system(), "meta-bridge");
    closers.push(bridge);
    MetaConfig mc =
        MetaConfig.local(zkConnect, "meta-1", compute.address())
            .withHttpPort(options.metaHttpPort())
            .withControlAllowed(
                TidewayConfig.ofProcess().getStringList(MetaConfig.CONTROL_ALLOWED_KEY));
    meta =
        MetaServer.start(
            mc,
            codec,
            clock,
            MetaWiring.of(
                bridge,
                codec,
                storage,
                storeDir.toUri().toString(),
                options.barrierIntervalMs(),
                false,
                clock));
    closers.push(meta);
    awaitLeader(meta, clock);
    meta.registry()
        .register(
            new NodeInfo(
                "compute",
                compute.address(),
                clock.nanoTime(),
                Runtime.getRuntime().availableProcessors(),
                clock.currentTimeMillis()));
    compute.markReady();
    CatalogRelations relations = new CatalogRelations(codec);
    MetaAccess access = new LocalMetaAccess(meta);
    ClusterMetaClient client = new ClusterMetaClient(access, relations, storage, clock, 5_000);
    Frontend frontend =
        new Frontend(
            client,
            new StorageBatchReader(storage, id -> tableOf(client, id)),
            new ComputeDmlWriter(bridge, access, codec, clock),
            new ComputeStatusClient(bridge, access, clock));
    pg =
        new PgServer(
            PgServerConfig.defaults(options.pgPort())
                .withTls(options.pgTls())
                .withAuth(dev.tideway.frontend.pgwire.PgAuth.catalog(frontend.authUsers())),
            frontend);
    pg.start();
    closers.push(pg);
    LOG.info("playground up: {}", psqlLine());
  }

  /** The playground's only meta process leads: wait for it, so the first statement finds it. */
  private static void awaitLeader(MetaServer meta, Clock clock) throws InterruptedException {
    long deadline = clock.currentTimeMillis() + 60_000;
    while (!(meta.isLeader() && meta.ddl().snapshot().isPresent())) {
      if (clock.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the meta service did not become leader within 60 s");
      }
      clock.sleepMillis(20);
    }
  }

  static dev.tideway.common.plan.TableDesc tableOf(ClusterMetaClient client, int id) {
    return client.relations().stream()
        .filter(r -> r.id() == id)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no relation with id " + id))
        .table();
  }

  private Config computeConfig(String zkConnect) {
    return ConfigFactory.parseString(
            "tideway.compute { node-id = 1, listen = \""
                + options.host()
                + ":"
                + options.computePort()
                + "\", http-port = "
                + options.computeHttpPort()
                + ", zookeeper = \""
                + zkConnect
                + "\" }")
        .withFallback(ConfigFactory.load());
  }

  /** The line a user runs to connect. */
  public String psqlLine() {
    return "psql -h " + options.host() + " -p " + pg.port() + " -d dev -U root";
  }

  public int pgPort() {
    return pg.port();
  }

  public MetaServer meta() {
    return meta;
  }

  public ComputeNode compute() {
    return compute;
  }

  @Override
  public void close() throws Exception {
    Closers.closeAll(closers);
  }
}
