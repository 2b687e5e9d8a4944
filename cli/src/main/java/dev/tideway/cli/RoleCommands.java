package dev.tideway.cli;

import dev.tideway.cli.cluster.ComputeProcess;
import dev.tideway.cli.cluster.EmbeddedZooKeeper;
import dev.tideway.cli.cluster.FrontendProcess;
import dev.tideway.cli.cluster.MetaProcess;
import dev.tideway.cli.cluster.PodOrdinal;
import dev.tideway.common.time.Clock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The cluster roles as separate processes (DESIGN §9): {@code tideway zookeeper}, {@code tideway
 * meta}, {@code tideway compute}, {@code tideway frontend}. Each runs until interrupted; every
 * process of one cluster names the same ZooKeeper and the same state store URL.
 */
final class RoleCommands {
  private RoleCommands() {}

  /** Exit status of a process the cluster downed: a supervisor should start it again. */
  static final int DOWNED = dev.tideway.cli.local.LocalCluster.DOWNED_STATUS;

  /**
   * Runs {@code process} until the JVM is asked to stop, then closes it; or, when {@code
   * terminated} completes first (the cluster downed this member and its actor system stopped),
   * returns {@link #DOWNED}, so the process exits instead of lingering without a cluster.
   */
  static int runUntilStopped(
      AutoCloseable process, CompletionStage<?> terminated, String name, PrintWriter out)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean stopping = new AtomicBoolean();
    AtomicInteger status = new AtomicInteger();
    terminated.whenComplete(
        (v, e) -> {
          if (!stopping.get()) {
            System.err.println(
                "tideway "
                    + name
                    + ": the cluster removed this member (its actor system stopped); exiting with"
                    + " status "
                    + DOWNED
                    + " so that its supervisor starts it again");
            status.set(DOWNED);
            stopped.countDown();
          }
        });
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stopping.set(true);
                  try {
                    process.close();
                  } catch (Exception e) {
                    System.err.println("tideway " + name + ": error while stopping: " + e);
                  }
                  stopped.countDown();
                },
                name + "-shutdown"));
    out.flush();
    stopped.await();
    return status.get();
  }

  static int failed(CommandLine.Model.CommandSpec spec, String name, Exception e) {
    spec.commandLine().getErr().println("tideway " + name + ": could not start: " + e);
    return 1;
  }

  /** Options every cluster process takes. */
  static class Common {
    @Option(names = "--zookeeper", defaultValue = "127.0.0.1:2181", description = "ZooKeeper")
    String zookeeper;

    @Option(names = "--cluster-id", defaultValue = "default", description = "cluster id")
    String clusterId;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "bind address")
    String host;

    @Option(
        names = "--advertise-host",
        description =
            "address the cluster's other processes reach this one at (default: --host); in a pod"
                + " bind --host 0.0.0.0 and advertise the pod's DNS name or IP")
    String advertiseHost;

    @Option(
        names = "--store",
        required = true,
        description = "state store URL shared by the cluster, e.g. file:///var/lib/tideway/store")
    String store;
  }

  @Command(
      name = "zookeeper",
      mixinStandardHelpOptions = true,
      description = "Run a single ZooKeeper server for a local cluster.")
  static final class ZooKeeperCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", defaultValue = "2181")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1")
    String host;

    @Option(names = "--data-dir", defaultValue = "tideway-data/zookeeper")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
      EmbeddedZooKeeper zk;
      try {
        zk = EmbeddedZooKeeper.start(dataDir, host, port);
      } catch (Exception e) {
        return failed(spec, "zookeeper", e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("ZooKeeper serving at " + zk.connectString(host));
      return runUntilStopped(zk, new CompletableFuture<>(), "zookeeper", out);
    }
  }

  @Command(
      name = "meta",
      mixinStandardHelpOptions = true,
      description = "Run a meta process (leader-elected through ZooKeeper).")
  static final class MetaCommand extends Common implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--participant-id", required = true, description = "unique per meta process")
    String participantId;

    @Option(names = "--port", defaultValue = "5690", description = "Pekko port")
    int port;

    @Option(names = "--http-port", defaultValue = "5691", description = "HTTP API port")
    int httpPort;

    @Option(
        names = "--barrier-interval-ms",
        defaultValue = "0",
        description = "0 follows the system parameter")
    long barrierIntervalMs;

    @Option(
        names = "--zk-session-timeout-ms",
        defaultValue = "10000",
        description =
            "ZooKeeper session timeout (>= 1000): how long a crashed leader holds the lead before"
                + " a standby takes over")
    int zkSessionTimeoutMs;

    @Override
    public Integer call() throws Exception {
      MetaProcess p;
      try {
        p =
            MetaProcess.start(
                new MetaProcess.Options(
                    zookeeper,
                    clusterId,
                    participantId,
                    host,
                    port,
                    httpPort,
                    store,
                    barrierIntervalMs,
                    zkSessionTimeoutMs,
                    advertiseHost),
                Clock.system());
      } catch (Exception e) {
        return failed(spec, "meta", e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("meta " + participantId + " up at " + p.address());
      return runUntilStopped(p, p.terminated(), "meta", out);
    }
  }

  @Command(name = "compute", mixinStandardHelpOptions = true, description = "Run a compute node.")
  static final class ComputeCommand extends Common implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--node-id",
        required = true,
        description =
            "unique per compute node, >= 1; 'ordinal': a StatefulSet pod's ordinal + 1 (from its"
                + " host name)")
    String nodeIdOption;

    @Option(names = "--port", defaultValue = "5688", description = "Pekko port")
    int port;

    @Option(
        names = "--http-port",
        description =
            "/metrics port (default: tideway.compute.http-port, 5692; 0: any free port, -1: off);"
                + " each node on a host needs its own")
    Integer httpPort;

    @Option(
        names = "--parallelism",
        defaultValue = "0",
        description = "actors per fragment this node takes (0 = its cores)")
    int cores;

    @Override
    public Integer call() throws Exception {
      ComputeProcess p;
      int c = cores > 0 ? cores : Runtime.getRuntime().availableProcessors();
      int nodeId;
      try {
        nodeId = PodOrdinal.resolve("--node-id", nodeIdOption, 1, PodOrdinal.hostname());
      } catch (IllegalArgumentException e) {
        return failed(spec, "compute", e);
      }
      try {
        p =
            ComputeProcess.start(
                new ComputeProcess.Options(
                    zookeeper,
                    clusterId,
                    nodeId,
                    host,
                    port,
                    store,
                    c,
                    httpPort == null ? ComputeProcess.DEFAULT_HTTP_PORT : httpPort,
                    advertiseHost),
                Clock.system());
      } catch (Exception e) {
        return failed(spec, "compute", e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("compute node " + nodeId + " up at " + p.node().address());
      return runUntilStopped(p, p.terminated(), "compute", out);
    }
  }

  @Command(
      name = "frontend",
      mixinStandardHelpOptions = true,
      description = "Run a frontend (PostgreSQL protocol).")
  static final class FrontendCommand extends Common implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", defaultValue = "5689", description = "Pekko port")
    int port;

    @Option(names = "--pg-port", defaultValue = "4566", description = "PostgreSQL port")
    int pgPort;

    @Option(
        names = "--http-port",
        defaultValue = "5693",
        description = "port of the probes /health/live and /health/ready (-1: off)")
    int httpPort;

    @Option(
        names = "--store-space",
        defaultValue = "1000",
        description =
            "SST id space, distinct from every compute node id; 'ordinal': 1000 + a StatefulSet"
                + " pod's ordinal")
    String storeSpaceOption;

    @Option(
        names = "--pg-tls-cert",
        description = "PEM certificate chain for TLS on the PostgreSQL port (with --pg-tls-key)")
    String pgTlsCert;

    @Option(names = "--pg-tls-key", description = "PEM PKCS#8 private key of --pg-tls-cert")
    String pgTlsKey;

    @Override
    public Integer call() throws Exception {
      FrontendProcess p;
      int storeSpace;
      try {
        storeSpace =
            PodOrdinal.resolve("--store-space", storeSpaceOption, 1000, PodOrdinal.hostname());
      } catch (IllegalArgumentException e) {
        return failed(spec, "frontend", e);
      }
      try {
        p =
            FrontendProcess.start(
                new FrontendProcess.Options(
                    zookeeper,
                    clusterId,
                    host,
                    port,
                    pgPort,
                    store,
                    storeSpace,
                    dev.tideway.frontend.pgwire.PgTls.configured(
                        dev.tideway.common.config.TidewayConfig.ofProcess(), pgTlsCert, pgTlsKey),
                    httpPort,
                    advertiseHost),
                Clock.system());
      } catch (Exception e) {
        return failed(spec, "frontend", e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("frontend up: psql -h " + host + " -p " + p.pgPort() + " -d dev -U root");
      return runUntilStopped(p, p.terminated(), "frontend", out);
    }
  }
}
