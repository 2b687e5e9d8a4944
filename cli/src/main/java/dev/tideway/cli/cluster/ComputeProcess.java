package dev.tideway.cli.cluster;

import com.typesafe.config.ConfigFactory;
import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.node.ComputeNode;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletionStage;
import org.apache.curator.framework.CuratorFramework;

/**
 * One {@code tideway compute} process: a compute node on the shared state store (a follower with
 * its own SST id space = its node id), registered for the scheduler, following the versions the
 * meta leader commits.
 */
public final class ComputeProcess implements AutoCloseable {

  /**
   * How to start.
   *
   * @param host the bind address of the Pekko and HTTP ports
   * @param advertiseHost the address peers reach this node at ({@code host} when null)
   */
  public record Options(
      String zookeeper,
      String clusterId,
      int nodeId,
      String host,
      int pekkoPort,
      String storeUrl,
      int cores,
      int httpPort,
      String advertiseHost) {
    public Options {
      advertiseHost = advertiseHost == null ? host : advertiseHost;
    }
  }

  /** {@link Options#httpPort} meaning "as configured". */
  public static final int DEFAULT_HTTP_PORT = Integer.MIN_VALUE;

  private final Deque<AutoCloseable> closers = new ArrayDeque<>();
  private ComputeNode node;

  private ComputeProcess() {}

  public static ComputeProcess start(Options o, Clock clock) throws Exception {
    ComputeProcess p = new ComputeProcess();
    try {
      p.startAll(o, clock);
      return p;
    } catch (Exception | Error e) {
      p.close();
      throw e;
    }
  }

  private void startAll(Options o, Clock clock) throws Exception {
    // one registry for the node's and its state store's metrics: /metrics serves both
    PrometheusRegistry metrics = new PrometheusRegistry();
    Storage storage =
        StateStores.open(
            o.storeUrl(),
            StorageOptions.defaults().withRegistry(metrics),
            StorageRole.follower(o.nodeId()));
    closers.push(storage);
    node =
        ComputeNode.start(
            ConfigFactory.parseString(
                    "tideway.compute { node-id = "
                        + o.nodeId()
                        + ", listen = \""
                        + o.advertiseHost()
                        + ":"
                        + o.pekkoPort()
                        + "\", http-host = \""
                        + o.host()
                        + "\", zookeeper = \""
                        + o.zookeeper()
                        + "\""
                        + (o.httpPort() == DEFAULT_HTTP_PORT ? "" : ", http-port = " + o.httpPort())
                        + " }")
                // TidewayConfig: the node's config file (TIDEWAY_CONFIG) and TIDEWAY_COMPUTE_*
                // environment twins, as reference.conf documents
                .withFallback(
                    ConfigFactory.parseString(
                        "pekko.remote.artery.bind.hostname = \"" + o.host() + "\""))
                .withFallback(TidewayConfig.ofProcess().underlying()),
            ExecutorBuilders.discover(),
            clock,
            storage,
            metrics);
    closers.push(node);
    closers.push(StoreFollower.start(storage));
    CuratorFramework zk = Zk.connect(o.zookeeper(), 15_000);
    closers.push(zk);
    NodeRegistry registry = new NodeRegistry(zk, new MetaPaths(o.clusterId()));
    closers.push(registry);
    registry.register(
        new NodeInfo(
            "compute", node.address(), clock.nanoTime(), o.cores(), clock.currentTimeMillis()));
    node.markReady();
  }

  public ComputeNode node() {
    return node;
  }

  /**
   * Completes when this process's actor system has terminated: after {@link #close()}, or when the
   * cluster downed this member (the process is then of no use and should exit).
   */
  public CompletionStage<?> terminated() {
    return node.system().getWhenTerminated();
  }

  @Override
  public void close() throws Exception {
    Closers.closeAll(closers);
  }
}
