package dev.tideway.meta;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.barrier.BarrierLog;
import dev.tideway.meta.barrier.BarrierObserver;
import dev.tideway.meta.barrier.BarrierRunner;
import dev.tideway.meta.barrier.GlobalBarrierManager;
import dev.tideway.meta.barrier.NodeStatuses;
import dev.tideway.meta.barrier.SinkDeliveries;
import dev.tideway.meta.barrier.VnodesDone;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.catalog.DdlService;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.LeaderElector;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import dev.tideway.meta.dashboard.DashboardRecorder;
import dev.tideway.meta.http.AllowedAddresses;
import dev.tideway.meta.http.JobControl;
import dev.tideway.meta.http.MetaHttpServer;
import dev.tideway.meta.http.MetaMetrics;
import dev.tideway.meta.http.MetaView;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.meta.version.StorageVersionCommitter;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.TableStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One meta process, wired: ZooKeeper client → fenced store + node registry → DDL service → leader
 * elector (its listener fans out to the DDL service and the metrics) → HTTP server.
 *
 * <p>Start order matters: the store's layout and this process's registration exist before it joins
 * the election, and the HTTP server starts last so {@code /health/ready} never reports a half-built
 * process. {@link #close} goes in reverse.
 */
public final class MetaServer implements MetaView, JobControl, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetaServer.class);

  private final MetaConfig config;
  private final CuratorFramework client;
  private final FencedMetaStore store;
  private final NodeRegistry registry;
  private final DdlService ddl;

  /**
   * How long a leader that resigned stays out of the election (a standby may win it meanwhile): 1
   * s, doubled for each resignation less than a minute after the previous one, up to a minute, so a
   * lone meta process over a store that keeps failing retries slowly instead of every second.
   */
  static final long RESIGN_REJOIN_MS = 1_000;

  static final long RESIGN_REJOIN_MAX_MS = 60_000;

  private final Clock clock;
  private long lastResignMs;
  private long rejoinDelayMs = RESIGN_REJOIN_MS;

  private synchronized long rejoinDelayMs() {
    long now = clock.currentTimeMillis();
    rejoinDelayMs =
        now - lastResignMs < RESIGN_REJOIN_MAX_MS
            ? Math.min(RESIGN_REJOIN_MAX_MS, rejoinDelayMs * 2)
            : RESIGN_REJOIN_MS;
    lastResignMs = now;
    return rejoinDelayMs;
  }

  private final LeaderElector elector;
  private final MetaMetrics metrics;
  private final MetaHttpServer http;

  /** Runs the barrier loop while leading; null until compute and storage are wired in. */
  private final BarrierRunner<?> barrier;

  /** The dashboard's time series and history entries, fed by the barrier loop. */
  private final DashboardRecorder recorder;

  private final PlanCodec codec;

  /** The store whose versions this process commits; null without a barrier loop. */
  private final Storage storage;

  private MetaServer(
      MetaConfig config, PlanCodec codec, Clock clock, BarrierRunner.Wiring<?> barrierWiring)
      throws Exception {
    this.config = config;
    this.clock = clock;
    this.codec = codec;
    this.storage =
        barrierWiring != null && barrierWiring.versions() instanceof StorageVersionCommitter s
            ? s.storage()
            : null;
    this.client =
        CuratorFrameworkFactory.newClient(
            config.zookeeper(),
            config.zkSessionTimeoutMs(),
            config.zkConnectTimeoutMs(),
            new ExponentialBackoffRetry(100, 10, 2_000));
    client.start();
    if (!client.blockUntilConnected(config.zkConnectTimeoutMs(), TimeUnit.MILLISECONDS)) {
      client.close();
      throw new IllegalStateException(
          "cannot reach ZooKeeper at "
              + config.zookeeper()
              + " within "
              + config.zkConnectTimeoutMs()
              + " ms");
    }
    MetaPaths paths = new MetaPaths(config.clusterId());
    LeaderElector[] self = new LeaderElector[1];
    this.store = new FencedMetaStore(client, paths, () -> self[0].currentTerm());
    store.ensureLayout();
    this.registry = new NodeRegistry(client, paths);
    registry.register(
        new NodeInfo(
            "meta",
            config.advertisedAddress(),
            clock.nanoTime(),
            Runtime.getRuntime().availableProcessors(),
            clock.currentTimeMillis()));
    this.ddl = new DdlService(store, new CatalogCore(codec), this::computeWorkers, clock);
    this.barrier = barrierWiring == null ? null : new BarrierRunner<>(barrierWiring, ddl, clock);
    this.metrics = new MetaMetrics(this);
    this.recorder = new DashboardRecorder(clock, ddl::snapshot, this::submitQuietly);
    if (barrier != null) {
      barrier.observeWith(BarrierObserver.both(metrics, recorder));
    }
    this.http =
        new MetaHttpServer(
            config.httpHost(),
            config.httpPort(),
            this,
            metrics,
            this,
            AllowedAddresses.parse(config.controlAllowed()));
    String httpAddress = http.address().getHostString() + ":" + http.address().getPort();
    this.elector =
        new LeaderElector(
            client,
            paths,
            config.participantId(),
            new LeaderInfo(config.advertisedAddress(), httpAddress, 0),
            fanOut(),
            clock);
    self[0] = elector;
    if (barrier != null) {
      // a halted loop's state is ahead of what is durable: give the term up so that a new one
      // (another process's, or this one's after rejoining) starts from ZooKeeper and storage
      barrier.onHalt((term, reason) -> elector.resign(term, reason, rejoinDelayMs()));
    }
    elector.start();
  }

  /** As {@link #start(MetaConfig, PlanCodec, Clock)} with the production Kryo plan codec. */
  public static MetaServer start(MetaConfig config, Clock clock) throws Exception {
    return start(config, KryoPlanCodec.create(), clock);
  }

  /** Connects to ZooKeeper, registers, joins the election and serves HTTP. */
  public static MetaServer start(MetaConfig config, PlanCodec codec, Clock clock) throws Exception {
    return new MetaServer(config, codec, clock, null);
  }

  /** As above, and runs the barrier loop with {@code wiring} while this process leads. */
  public static MetaServer start(
      MetaConfig config, PlanCodec codec, Clock clock, BarrierRunner.Wiring<?> wiring)
      throws Exception {
    return new MetaServer(config, codec, clock, wiring);
  }

  private LeadershipListener fanOut() {
    return new LeadershipListener() {
      @Override
      public void onElected(LeaderTerm term) {
        metrics.leadershipChanged();
        ddl.onElected(term);
        if (barrier != null) {
          barrier.onElected(term);
        }
      }

      @Override
      public void onDeposed(LeaderTerm term, String reason) {
        metrics.leadershipChanged();
        if (barrier != null) {
          barrier.onDeposed(term, reason);
        }
        ddl.onDeposed(term, reason);
      }
    };
  }

  private List<Worker> computeWorkers() {
    List<Worker> out = new ArrayList<>();
    for (NodeInfo n : registry.list("compute")) {
      out.add(new Worker(n.address(), Math.max(1, n.cores())));
    }
    return out;
  }

  /**
   * The barrier loop of the current term, while this process leads with a wired loop: feed it
   * membership events ({@code onNodeLost}) and map barrier node ids to addresses.
   */
  public Optional<GlobalBarrierManager<?>> barrierManager() {
    return Optional.ofNullable(barrier == null ? null : barrier.manager());
  }

  /**
   * {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT}: persists the rate in creating job
   * {@code jobId}'s fragment graph (one fenced write, so a recovery or a new leader rebuilds its
   * backfill actors with it), then sends it to the running actors as a {@code Throttle} barrier.
   *
   * @param rowsPerSecond per backfill actor; 0 pauses the backfill, -1 removes the limit
   * @return completes with {@link DdlReply.BackfillThrottled} (how and at which epoch the actors
   *     got it; PERSISTED when this process runs no barrier loop), or with {@link
   *     DdlReply.Rejected} (unknown job, not creating, no backfill); fails with {@link
   *     dev.tideway.protocol.meta.NotLeaderException} when this process does not lead
   */
  @Override
  public CompletableFuture<DdlReply> setBackfillRateLimit(int jobId, long rowsPerSecond) {
    DdlCommand.SetBackfillRateLimit cmd;
    try {
      cmd = new DdlCommand.SetBackfillRateLimit(jobId, rowsPerSecond);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.completedFuture(
          new DdlReply.Rejected(DdlReply.Rejected.Reason.INVALID, e.getMessage()));
    }
    return ddl.submit(cmd)
        .thenCompose(
            reply -> {
              if (!(reply instanceof DdlReply.BackfillRateLimitSet set)) {
                return CompletableFuture.completedFuture(reply);
              }
              GlobalBarrierManager<?> m = barrier == null ? null : barrier.manager();
              if (m == null) {
                return CompletableFuture.completedFuture(
                    new DdlReply.BackfillThrottled(
                        jobId, rowsPerSecond, DdlReply.BackfillThrottled.Applied.PERSISTED, 0));
              }
              return m.throttle(set);
            });
  }

  /** Submits a command nobody waits for (a history entry); a failure is logged. */
  private void submitQuietly(DdlCommand cmd) {
    ddl.submit(cmd)
        .whenComplete(
            (reply, e) -> {
              if (e != null) {
                LOG.warn("{} failed", cmd.getClass().getSimpleName(), e);
              }
            });
  }

  @Override
  public CompletableFuture<DdlReply> cancel(int jobId) {
    return ddl.submit(new DdlCommand.CancelJob(jobId));
  }

  @Override
  public Optional<DashboardRecorder> recorder() {
    return barrier != null && barrier.manager() != null ? Optional.of(recorder) : Optional.empty();
  }

  @Override
  public Optional<PlanCodec> planCodec() {
    return Optional.of(codec);
  }

  @Override
  public Map<Integer, TableStats> tableStats() {
    return storage == null ? Map.of() : storage.tableStats();
  }

  @Override
  public String storageVersion() {
    return storage == null ? "" : storage.describeVersion();
  }

  public DdlService ddl() {
    return ddl;
  }

  public MetaHttpServer http() {
    return http;
  }

  public NodeRegistry registry() {
    return registry;
  }

  @Override
  public String clusterId() {
    return config.clusterId();
  }

  @Override
  public String participantId() {
    return config.participantId();
  }

  @Override
  public boolean isLeader() {
    return elector.isLeader();
  }

  @Override
  public boolean isReady() {
    if (isLeader()) {
      return ddl.snapshot().isPresent();
    }
    return client.getZookeeperClient().isConnected();
  }

  @Override
  public Optional<LeaderInfo> leader() {
    return registry.leader();
  }

  @Override
  public List<NodeInfo> nodes() {
    List<NodeInfo> out = new ArrayList<>();
    for (String role : List.of("meta", "compute", "frontend")) {
      out.addAll(registry.list(role));
    }
    return out;
  }

  @Override
  public Map<Long, JobProgress> progress() {
    return barrier == null ? Map.of() : barrier.progress();
  }

  @Override
  public Map<Integer, SinkDeliveries.Delivered> sinkDeliveries() {
    return barrier == null ? Map.of() : barrier.sinkDeliveries();
  }

  @Override
  public Map<Integer, VnodesDone.Count> vnodesDone() {
    return barrier == null ? Map.of() : barrier.vnodesDone();
  }

  @Override
  public Map<String, NodeStatuses.Status> nodeStatuses() {
    return barrier == null ? Map.of() : barrier.nodeStatuses();
  }

  @Override
  public List<ExpressionErrorCount> expressionErrors() {
    return barrier == null ? List.of() : barrier.expressionErrors();
  }

  @Override
  public List<BarrierLog.Entry> recentBarriers() {
    var m = barrier == null ? null : barrier.manager();
    return m == null ? List.of() : m.recentBarriers();
  }

  @Override
  public int inflightBarriers() {
    var m = barrier == null ? null : barrier.manager();
    return m == null ? 0 : m.inflightBarriers();
  }

  @Override
  public Optional<CatalogState> catalog() {
    Optional<CatalogState> own = ddl.snapshot();
    return own.isPresent() ? own : Optional.of(CatalogLoader.load(store));
  }

  /** Stops serving, leaves the election (a standby takes over), unregisters, disconnects. */
  @Override
  public void close() throws Exception {
    try {
      http.close();
      elector.close();
    } finally {
      ddl.close();
      registry.close();
      client.close();
    }
  }
}
