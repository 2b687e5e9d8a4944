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
}
