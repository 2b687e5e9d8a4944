package dev.tideway.it.slt;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgServer;
import dev.tideway.frontend.pgwire.PgServerConfig;
import java.io.IOException;
import java.util.Properties;

/**
 * A PostgreSQL-protocol endpoint that {@code .slt} files run against: a JDBC URL, the connection
 * properties (user), and how to shut it down.
 */
interface SltTarget extends AutoCloseable {
  String jdbcUrl();

  /** Connection properties: user {@code root}, as the playground prints. */
  default Properties properties() {
    Properties p = new Properties();
    p.setProperty("user", "root");
    return p;
  }

  @Override
  void close() throws IOException;

  /**
   * Global recoveries the cluster started for any cause but a leader's election (a barrier that
   * never came through, a failed actor), or -1 when the target cannot tell. The files' statements
   * retry their reads, so a stall or a recovery would otherwise pass unseen.
   */
  default long recoveries() {
    return -1;
  }

  /** Any server already listening (a playground started by hand, a cluster in CI). */
  static SltTarget external(String jdbcUrl) {
    return new SltTarget() {
      @Override
      public String jdbcUrl() {
        return jdbcUrl;
      }

      @Override
      public void close() {}
    };
  }

  /**
   * A frontend over the in-memory stand-in cluster, on a free loopback port. Views are evaluated in
   * batch on every read there (no incremental maintenance), and writes are visible at once.
   */
  static SltTarget inMemory() throws IOException {
    InMemoryCluster cluster = new InMemoryCluster(Clock.system());
    PgServer server = new PgServer(PgServerConfig.defaults(0), Frontend.inMemory(cluster));
    int port = server.start();
    return new SltTarget() {
      @Override
      public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + Frontend.DATABASE;
      }

      @Override
      public void close() throws IOException {
        server.close();
      }
    };
  }

  /**
   * A real playground (embedded ZooKeeper, meta, compute node, frontend) in this JVM with its data
   * in a fresh temporary directory and a short barrier interval: views are maintained incrementally
   * by the compute node and reads see committed epochs.
   */
  static SltTarget playground() throws IOException {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tideway-slt");
    dev.tideway.cli.cluster.Playground p;
    int metaHttpPort = freePort();
    try {
      p =
          dev.tideway.cli.cluster.Playground.start(
              new dev.tideway.cli.cluster.Playground.Options(
                  dir, "127.0.0.1", 0, metaHttpPort, freePort(), freePort(), 100),
              Clock.system());
    } catch (Exception e) {
      throw new IOException("could not start a playground in " + dir, e);
    }
    return new SltTarget() {
      @Override
      public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/" + Frontend.DATABASE;
      }

      @Override
      public long recoveries() {
        return (long) dev.tideway.cli.local.Probes.recoveries(metaHttpPort);
      }

      @Override
      public void close() throws IOException {
        try {
          p.close();
        } catch (Exception e) {
          throw new IOException("could not stop the playground", e);
        }
      }
    };
  }

  private static int freePort() throws IOException {
    return dev.tideway.it.cluster.TestPorts.free();
  }
}
