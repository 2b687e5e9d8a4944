package dev.tideway.frontend.e2e;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgServer;
import dev.tideway.frontend.pgwire.PgServerConfig;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** An in-memory cluster behind a real PostgreSQL-protocol server on a free loopback port. */
final class TestCluster implements AutoCloseable {
  final InMemoryCluster cluster = new InMemoryCluster(Clock.system());
  final Frontend frontend = Frontend.inMemory(cluster);
  final PgServer server;
  final int port;

  TestCluster() throws IOException {
    server = new PgServer(PgServerConfig.defaults(0), frontend);
    port = server.start();
  }

  Connection connect(boolean simple) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "root");
    if (simple) {
      p.setProperty("preferQueryMode", "simple");
    }
    return DriverManager.getConnection(url(), p);
  }

  String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/dev";
  }

  /** Runs a query and renders its rows as "a|b" lines. */
  static List<String> rows(Statement st, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
