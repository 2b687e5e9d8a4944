package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The playground end to end through pgjdbc: tables, DML, materialized views maintained by the
 * compute node and read back at committed epochs; every view must equal a batch recomputation of
 * its query, and everything must survive a restart of the whole process.
 */
public class PlaygroundIT {
  @TempDir Path dir;

  static int freePort() throws IOException {
    return TestPorts.free();
  }

  static Playground.Options options(Path dir) throws IOException {
    return new Playground.Options(dir, "127.0.0.1", 0, freePort(), freePort(), freePort(), 100);
  }

  static Connection connect(Playground p) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
  }

  static List<String> rows(Statement st, String sql) throws SQLException {
    return dev.tideway.cli.local.Probes.sortedRows(st, sql, String::valueOf);
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

  /** Median latency in microseconds of running {@code ps} with each parameter pair. */
  private static long medianMicros(java.sql.PreparedStatement ps, List<long[]> keys, int plus)
      throws SQLException {
    List<Long> micros = new ArrayList<>();
    for (long[] k : keys) {
      ps.setInt(1, (int) k[0] + plus);
      ps.setLong(2, k[1] + plus);
      long t0 = System.nanoTime();
      int n = 0;
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
        }
      }
      micros.add((System.nanoTime() - t0) / 1000);
      assertThat(n).as("key %s", java.util.Arrays.toString(k)).isEqualTo(1);
    }
    micros.sort(null);
    return micros.get(micros.size() / 2);
  }

  private static String where(RandomSource r) {
    int a = r.nextInt(110) - 5;
    long b = r.nextLong(100_010) - 5;
    int a2 = a + r.nextInt(10);
    return switch (r.nextInt(8)) {
      case 0 -> "a = " + a;
      case 1 -> "a = " + a + " AND b = " + b;
      case 2 -> "a = " + a + " AND b BETWEEN " + b + " AND " + (b + r.nextInt(5000));
      case 3 -> "a > " + a + " AND a <= " + a2;
      case 4 -> "a >= " + a + " AND a < " + a2 + " AND v < 500";
      case 5 -> "b = " + b;
      case 6 -> "a = " + a + " AND b > " + b;
      default -> a + " > a AND a >= " + (a - 3);
    };
  }

  private static boolean holds(String where, long a, long b, long v) {
    for (String c : where.replace(" BETWEEN ", " >= ").split(" AND ")) {
      if (!holdsOne(c.strip(), a, b, v, where)) {
        return false;
      }
    }
    return true;
  }

  private static boolean holdsOne(String c, long a, long b, long v, String where) {
    String[] t = c.split(" ");
    if (t.length == 1) { // the upper end of a BETWEEN
      long hi = Long.parseLong(t[0]);
      return b <= hi;
    }
    boolean flipped = Character.isDigit(t[0].charAt(0)) || t[0].startsWith("-");
    String col = flipped ? t[2] : t[0];
    long lit = Long.parseLong(flipped ? t[0] : t[2]);
    long x = col.equals("a") ? a : col.equals("b") ? b : v;
    String op = t[1];
    if (flipped) {
      op =
          switch (op) {
            case ">" -> "<";
            case "<" -> ">";
            case ">=" -> "<=";
            case "<=" -> ">=";
            default -> op;
          };
    }
    return switch (op) {
      case "=" -> x == lit;
      case ">" -> x > lit;
      case ">=" -> x >= lit;
      case "<" -> x < lit;
      case "<=" -> x <= lit;
      default -> throw new IllegalArgumentException(where);
    };
  }

  @Test
  void pkRangesPushedIntoScansReturnWhatAFilteredFullScanReturns() throws Exception {
    RandomSource r = RandomSource.fromPropertyOr(4242L);
    try (Playground p = Playground.start(options(dir), Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE pr (a INT, b BIGINT, v INT, PRIMARY KEY (a, b))");
      st.execute(
          "INSERT INTO pr SELECT x % 100, x, x * 7 % 1000 FROM generate_series(1, 100000) AS x");
      st.execute("FLUSH");
      List<long[]> all = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT a, b, v FROM pr")) {
        while (rs.next()) {
          all.add(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)});
        }
      }
      assertThat(all).hasSize(100_000);
      for (int i = 0; i < 60; i++) {
        String w = where(r);
        List<String> expected = new ArrayList<>();
        for (long[] row : all) {
          if (holds(w, row[0], row[1], row[2])) {
            expected.add(row[0] + "|" + row[1] + "|" + row[2]);
          }
        }
        expected.sort(null);
        assertThat(rows(st, "SELECT a, b, v FROM pr WHERE " + w))
            .as("seed %s: WHERE %s", r.seed(), w)
            .isEqualTo(expected);
      }
      assertThat(rows(st, "EXPLAIN SELECT * FROM pr WHERE a = 3 AND b = 103"))
          .contains("Scan pr: point lookup a = 3 AND b = 103");
      assertThat(rows(st, "EXPLAIN SELECT * FROM pr WHERE a = 3 AND b > 50000"))
          .contains("Scan pr: pk range a = 3 AND b > 50000");
      assertThat(rows(st, "EXPLAIN SELECT * FROM pr WHERE a + 1 = 4 AND b + 1 = 104"))
          .contains("Scan pr: full scan");
      List<long[]> keys = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        long b = 1 + r.nextLong(100_000);
        keys.add(new long[] {b % 100, b});
      }
      try (java.sql.PreparedStatement pushed =
              c.prepareStatement("SELECT v FROM pr WHERE a = ? AND b = ?");
          java.sql.PreparedStatement full =
              c.prepareStatement("SELECT v FROM pr WHERE a + 1 = ? AND b + 1 = ?");
          java.sql.PreparedStatement noStorage =
              c.prepareStatement("SELECT CAST(? AS INT) + CAST(? AS BIGINT)")) {
        medianMicros(noStorage, keys.subList(0, 5), 0);
        long baseline = medianMicros(noStorage, keys.subList(5, keys.size()), 0);
        medianMicros(pushed, keys.subList(0, 5), 0); // warm up (plan compilation)
        medianMicros(full, keys.subList(0, 5), 1);
        long withPushdown = medianMicros(pushed, keys.subList(5, keys.size()), 0);
        long withoutPushdown = medianMicros(full, keys.subList(5, 25), 1);
        System.out.println(
            "point_lookup_100k_rows median_us with_pushdown="
                + withPushdown
                + " without_pushdown="
                + withoutPushdown
                + " query_without_storage="
                + baseline);
        assertThat(withPushdown).isLessThan(withoutPushdown);
      }
    }
  }

  @Test
  void viewsOnViewsChainOfThreeBackfillAndFollowChanges() throws Exception {
    Playground.Options o = options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement();
        Connection c2 = connect(p);
        Statement other = c2.createStatement()) {
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
      // Two sessions write back to back without FLUSH. The second reads the committed epoch, so
      // its UPDATE can carry stale old rows, even of keys the other session just deleted. The
      // table must turn what it is asked into what it did, or the filter view drifts from its
      // query.
      for (int round = 0; round < 3; round++) {
        st.execute("DELETE FROM base WHERE k % 7 = " + round);
        other.execute("UPDATE base SET v = (v + 13) % 50 WHERE k % 5 = " + round);
        st.execute("UPDATE base SET v = (v + 29) % 50 WHERE k % 3 = " + round);
        int from = 3001 + 500 * round;
        st.execute(
            "INSERT INTO base SELECT x, x % 11 FROM generate_series("
                + from
                + ", "
                + (from + 499)
                + ") AS x");
        st.execute("FLUSH");
        assertThat(rows(st, "SELECT * FROM m1")).as("m1, round %d", round).isEqualTo(rows(st, q1));
        assertThat(rows(st, "SELECT * FROM m2")).as("m2, round %d", round).isEqualTo(rows(st, q2));
        assertThat(rows(st, "SELECT * FROM m3")).as("m3, round %d", round).isEqualTo(rows(st, q3));
      }
    }
  }

  /**
   * A session sees its own writes without FLUSH, as in PostgreSQL: an UPDATE after a DELETE in the
   * same session does not bring the deleted rows back, and a SELECT right after sees both.
   */
  @Test
  void sessionReadsItsOwnWritesWithoutFlush() throws Exception {
    Playground.Options o = options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE kv (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO kv SELECT x, x FROM generate_series(1, 200) AS x");
      java.util.Map<Integer, Integer> model = new java.util.TreeMap<>();
      for (int k = 1; k <= 200; k++) {
        model.put(k, k);
      }
      assertThat(rows(st, "SELECT count(*) FROM kv")).containsExactly("200");
      st.execute("DELETE FROM kv WHERE k % 4 = 0");
      model.keySet().removeIf(k -> k % 4 == 0);
      st.execute("UPDATE kv SET v = v + 1000 WHERE k % 2 = 0");
      model.replaceAll((k, v) -> k % 2 == 0 ? v + 1000 : v);
      st.execute("INSERT INTO kv VALUES (1000, 1), (1001, 2)");
      model.put(1000, 1);
      model.put(1001, 2);
      st.execute("UPDATE kv SET v = v * 2 WHERE k >= 1000");
      model.replaceAll((k, v) -> k >= 1000 ? v * 2 : v);
      List<String> expected = new ArrayList<>();
      model.forEach((k, v) -> expected.add(k + "|" + v));
      expected.sort(null);
      assertThat(rows(st, "SELECT k, v FROM kv")).isEqualTo(expected);
    }
  }
}
