package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The playground end to end through pgjdbc: tables, DML, materialized views maintained by the
 * compute node and read back at committed epochs; every view must equal a batch recomputation of
 * its query, and everything must survive a restart of the whole process.
 */
class PlaygroundIT {
  @TempDir Path dir;

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static Playground.Options options(Path dir) throws IOException {
    return new Playground.Options(dir, "127.0.0.1", 0, freePort(), freePort(), freePort(), 100);
  }

  static Connection connect(Playground p) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
  }

  static List<String> rows(Statement st, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(b.toString());
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void tableInsertAndViewEqualBatchRecomputationAcrossRestart() throws Exception {
    Playground.Options o = options(dir);
    String agg = "SELECT v % 7 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY v % 7";
    List<String> before;
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT x, x * 3 FROM generate_series(1, 500) AS x");
      st.execute("FLUSH");
      assertThat(rows(st, "SELECT count(*) FROM t")).containsExactly("500");
      st.execute("CREATE MATERIALIZED VIEW mv AS " + agg);
      assertThat(rows(st, "SELECT * FROM mv")).isEqualTo(rows(st, agg));
      st.execute("UPDATE t SET v = v + 1 WHERE k <= 100");
      st.execute("DELETE FROM t WHERE k > 450");
      st.execute("INSERT INTO t VALUES (1000, 7), (1001, 14)");
      st.execute("FLUSH");
      before = rows(st, "SELECT * FROM mv");
      assertThat(before).isEqualTo(rows(st, agg));
    }
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      assertThat(rows(st, "SELECT * FROM mv")).isEqualTo(before);
      st.execute("INSERT INTO t VALUES (2000, 21)");
      st.execute("FLUSH");
      assertThat(rows(st, "SELECT * FROM mv")).isEqualTo(rows(st, agg));
    }
  }

  @Test
  @Disabled(
      "known bug: after UPDATEs of the base table, m1 (a filter/projection view over it) has been"
          + " seen to differ from its batch query in about one run of three; under"
          + " investigation (see the backfill issue's closing note)")
  void viewsOnViewsChainOfThreeBackfillAndFollowChanges() throws Exception {
    Playground.Options o = options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE base (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO base SELECT x, x % 50 FROM generate_series(1, 3000) AS x");
      st.execute("FLUSH");
      st.execute("CREATE MATERIALIZED VIEW m1 AS SELECT k, v * 2 AS w FROM base WHERE v < 40");
      st.execute("CREATE MATERIALIZED VIEW m2 AS SELECT w, count(*) AS n FROM m1 GROUP BY w");
      st.execute("CREATE MATERIALIZED VIEW m3 AS SELECT n, count(*) AS ngroups FROM m2 GROUP BY n");
      String q1 = "SELECT k, v * 2 AS w FROM base WHERE v < 40";
      String q2 = "SELECT v * 2 AS w, count(*) AS n FROM base WHERE v < 40 GROUP BY v * 2";
      String q3 = "SELECT n, count(*) AS ngroups FROM (" + q2 + ") AS x GROUP BY n";
      assertThat(rows(st, "SELECT * FROM m1")).isEqualTo(rows(st, q1));
      assertThat(rows(st, "SELECT * FROM m2")).isEqualTo(rows(st, q2));
      assertThat(rows(st, "SELECT * FROM m3")).isEqualTo(rows(st, q3));
      st.execute("DELETE FROM base WHERE k % 7 = 0");
      st.execute("UPDATE base SET v = (v + 13) % 50 WHERE k % 5 = 0");
      st.execute("INSERT INTO base SELECT x, x % 11 FROM generate_series(3001, 3500) AS x");
      st.execute("FLUSH");
      assertThat(rows(st, "SELECT * FROM m1")).isEqualTo(rows(st, q1));
      assertThat(rows(st, "SELECT * FROM m2")).isEqualTo(rows(st, q2));
      assertThat(rows(st, "SELECT * FROM m3")).isEqualTo(rows(st, q3));
    }
  }
}
