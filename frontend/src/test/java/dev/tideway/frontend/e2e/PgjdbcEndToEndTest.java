package dev.tideway.frontend.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SQL surface through pgjdbc, in extended (default) and simple query mode. */
class PgjdbcEndToEndTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new TestCluster();
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  private static String sqlState(Throwable e) {
    return ((SQLException) e).getSQLState();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void createInsertSelectUpdateDelete(boolean simple) throws Exception {
    String t = simple ? "t_simple" : "t_ext";
    try (Connection c = cluster.connect(simple);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, k INT, v VARCHAR)");
      assertThat(st.executeUpdate("INSERT INTO " + t + " VALUES (1, 10, 'a'), (2, 20, 'b')"))
          .isEqualTo(2);
      assertThat(
              st.executeUpdate(
                  "INSERT INTO "
                      + t
                      + " SELECT g, g % 7, 'c' || g FROM generate_series(3, 10) AS g"))
          .isEqualTo(8);
      st.execute("FLUSH");
      assertThat(TestCluster.rows(st, "SELECT count(*), sum(id) FROM " + t))
          .containsExactly("10|55");
      assertThat(st.executeUpdate("UPDATE " + t + " SET k = k + 1, v = upper(v) WHERE id <= 2"))
          .isEqualTo(2);
      assertThat(TestCluster.rows(st, "SELECT id, k, v FROM " + t + " WHERE id < 3 ORDER BY id"))
          .containsExactly("1|11|A", "2|21|B");
      assertThat(st.executeUpdate("DELETE FROM " + t + " WHERE id > 5")).isEqualTo(5);
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM " + t)).containsExactly("5");
    }
  }

  /**
   * Bulk loads arrive as one long VALUES list (a dump, or a driver's batch rewritten into one
   * statement); the query engine once compiled each into a single generated method and failed past
   * a few thousand rows.
   */
  @Test
  void longValuesListsAndRewrittenBatchesLoadWhole() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE bulk (id BIGINT PRIMARY KEY, k INT, v VARCHAR, ok BOOLEAN)");
      StringBuilder sql = new StringBuilder("INSERT INTO bulk VALUES ");
      for (int i = 1; i <= 20_000; i++) {
        sql.append(i > 1 ? ", " : "")
            .append('(')
            .append(i)
            .append(", ")
            .append(i % 2 == 0 ? "-" : "")
            .append(i % 100)
            .append(", 'v")
            .append(i)
            .append(i % 3 == 0 ? "''s'" : "'")
            .append(i % 5 == 0 ? ", NULL)" : ", TRUE)");
      }
      assertThat(st.executeUpdate(sql.toString())).isEqualTo(20_000);
      assertThat(TestCluster.rows(st, "SELECT count(*), sum(id), sum(k), count(ok) FROM bulk"))
          .containsExactly("20000|200010000|" + expectedKSum() + "|16000");
      assertThat(TestCluster.rows(st, "SELECT v FROM bulk WHERE id IN (3, 4) ORDER BY id"))
          .containsExactly("v3's", "v4");
    }
    Properties p = new Properties();
    p.setProperty("user", "root");
    p.setProperty("reWriteBatchedInserts", "true");
    try (Connection c = DriverManager.getConnection(cluster.url(), p);
        Statement st = c.createStatement();
        PreparedStatement ins =
            c.prepareStatement("INSERT INTO bulk (id, v, k, ok) VALUES (?, ?, ?, ?)")) {
      for (int i = 20_001; i <= 30_000; i++) {
        ins.setLong(1, i);
        ins.setString(2, "b" + i);
        ins.setInt(3, 7);
        ins.setBoolean(4, false);
        ins.addBatch();
      }
      ins.executeBatch();
      assertThat(TestCluster.rows(st, "SELECT count(*), count(*) FILTER (WHERE NOT ok) FROM bulk"))
          .containsExactly("30000|10000");
      assertThat(TestCluster.rows(st, "SELECT v, k FROM bulk WHERE id = 29999"))
          .containsExactly("b29999|7");
      // wrong input is refused whole, with PostgreSQL's SQLSTATEs
      assertThatThrownBy(
              () ->
                  st.execute("INSERT INTO bulk VALUES (40000, 1, 'a', TRUE), (NULL, 1, 'b', TRUE)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23502"));
      assertThatThrownBy(
              () -> st.execute("INSERT INTO bulk VALUES (40001, 1, 'a', TRUE), (40002, 1)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"));
      assertThatThrownBy(() -> st.execute("INSERT INTO bulk VALUES (40003, 3000000000, 'a', TRUE)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22003"));
      assertThatThrownBy(() -> st.execute("INSERT INTO bulk VALUES (40004, 1, 'a', TRUE, 5)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"));
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM bulk WHERE id >= 40000"))
          .containsExactly("0");
      // as in RisingWave, a row whose key exists replaces it
      assertThat(st.executeUpdate("INSERT INTO bulk VALUES (1, 1, 'again', TRUE)")).isEqualTo(1);
      assertThat(TestCluster.rows(st, "SELECT count(*), max(v) FILTER (WHERE id = 1) FROM bulk"))
          .containsExactly("30000|again");
    }
  }

  /**
   * A driver's batch of single-row INSERTs (not rewritten) is one write acknowledged at its Sync;
   * like PostgreSQL's implicit transaction, the statements up to a Sync that holds a bad row write
   * none of their rows (pgJDBC sends a Sync every few hundred statements; the bad row here is in
   * the first stretch, and the driver stops there).
   */
  @Test
  void batchesOfSingleRowInsertsAreAllOrNothing() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE batched (id BIGINT PRIMARY KEY, v VARCHAR)");
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO batched VALUES (?, ?)")) {
        for (int i = 1; i <= 5_000; i++) {
          ins.setLong(1, i);
          ins.setString(2, "v" + i);
          ins.addBatch();
        }
        int[] counts = ins.executeBatch();
        assertThat(counts).hasSize(5_000).containsOnly(1);
        for (int i = 5_001; i <= 6_000; i++) {
          ins.setObject(1, i == 5_050 ? null : (Object) (long) i);
          ins.setString(2, "bad batch");
          ins.addBatch();
        }
        assertThatThrownBy(ins::executeBatch)
            .isInstanceOf(java.sql.BatchUpdateException.class)
            .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23502"));
        // the connection goes on, and a statement after the batch sees the batch's rows
        ins.setLong(1, 7_000);
        ins.setString(2, "after");
        assertThat(ins.executeUpdate()).isEqualTo(1);
      }
      assertThat(TestCluster.rows(st, "SELECT count(*), min(id), max(id) FROM batched"))
          .containsExactly("5001|1|7000");
    }
  }

  private static long expectedKSum() {
    long sum = 0;
    for (int i = 1; i <= 20_000; i++) {
      sum += (i % 2 == 0 ? -1 : 1) * (i % 100);
    }
    return sum;
  }

  /** What drivers send for parameters, in both modes: UPDATE SET ?, timestamps with a zone. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void parametersInUpdateAndTimestampsWithZones(boolean simple) throws Exception {
    String t = simple ? "params_simple" : "params_ext";
    try (Connection c = cluster.connect(simple);
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE " + t + " (id INT PRIMARY KEY, d NUMERIC(12,6), s VARCHAR, ts TIMESTAMP)");
      try (PreparedStatement ins =
          c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?)")) {
        ins.setInt(1, 1);
        ins.setBigDecimal(2, new java.math.BigDecimal("12345.678901"));
        ins.setString(3, "a");
        ins.setTimestamp(4, java.sql.Timestamp.valueOf("2024-01-02 03:04:05"));
        assertThat(ins.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement up =
          c.prepareStatement("UPDATE " + t + " SET s = ?, d = ? WHERE id = ?")) {
        up.setString(1, "updated");
        up.setBigDecimal(2, new java.math.BigDecimal("1.25"));
        up.setInt(3, 1);
        assertThat(up.executeUpdate()).isEqualTo(1);
      }
      // PostgreSQL takes a zone after a timestamp without time zone, and ignores it
      st.execute("INSERT INTO " + t + " VALUES (2, 0, 'z', '2024-01-02 03:04:05+02')");
      assertThat(TestCluster.rows(st, "SELECT id, d, s, ts FROM " + t + " ORDER BY id"))
          .containsExactly(
              "1|1.250000|updated|2024-01-02 03:04:05", "2|0.000000|z|2024-01-02 03:04:05");
      assertThatThrownBy(() -> st.execute("INSERT INTO " + t + " VALUES (3, 0, 'z', 'noon')"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22007"))
          .hasMessageContaining("invalid input syntax for type timestamp");
      assertThatThrownBy(() -> st.execute("INSERT INTO " + t + " VALUES ('three', 0, 'z', NULL)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22P02"));
      assertThat(TestCluster.rows(st, "SELECT current_user, session_user, '-0.0125'::numeric"))
          .containsExactly("root|root|-0.0125");
    }
  }

  /** Cancel (Ctrl-C in psql, Statement.cancel in JDBC) stops a long batch query promptly. */
  @Test
  void cancelStopsALongQueryWithinSeconds() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE cancel_me (id BIGINT PRIMARY KEY)");
      st.execute("INSERT INTO cancel_me SELECT g FROM generate_series(1, 3000) AS g");
      java.util.concurrent.atomic.AtomicLong cancelledAt =
          new java.util.concurrent.atomic.AtomicLong();
      Thread canceller =
          new Thread(
              () -> {
                try {
                  Thread.sleep(1500);
                  cancelledAt.set(System.nanoTime());
                  st.cancel();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      canceller.start();
      // 27 billion rows through nested loops: minutes, unless cancelled
      assertThatThrownBy(
              () ->
                  st.executeQuery(
                      "SELECT count(*) FROM cancel_me a, cancel_me b, cancel_me c WHERE a.id + b.id"
                          + " + c.id = -1"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("57014"));
      long afterCancelMs = (System.nanoTime() - cancelledAt.get()) / 1_000_000;
      canceller.join();
      assertThat(afterCancelMs).as("ms from cancel to the error").isLessThan(5_000);
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM cancel_me")).containsExactly("3000");
    }
  }

  /** COPY FROM STDIN through pgJDBC's CopyManager: text and CSV, and bad input refused whole. */
  @Test
  void copyFromStdinInTextAndCsv() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE copy_t (id BIGINT PRIMARY KEY, v VARCHAR, ts TIMESTAMP)");
      org.postgresql.copy.CopyManager copy =
          c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      String text =
          "1\ttab\\there\t2024-01-02 03:04:05\n2\t\\N\t\\N\n3\tback\\\\slash\t2024-01-03 00:00:00\n";
      assertThat(copy.copyIn("COPY copy_t FROM STDIN", new java.io.StringReader(text)))
          .isEqualTo(3);
      assertThat(
              copy.copyIn(
                  "COPY copy_t (v, id) FROM STDIN WITH (FORMAT csv)",
                  new java.io.StringReader("\"a,b\",4\n\"line\nbreak\",5\n,6\n\"\",7\n")))
          .isEqualTo(4);
      assertThat(TestCluster.rows(st, "SELECT id, v, ts FROM copy_t ORDER BY id"))
          .containsExactly(
              "1|tab\there|2024-01-02 03:04:05",
              "2|null|null",
              "3|back\\slash|2024-01-03 00:00:00",
              "4|a,b|null",
              "5|line\nbreak|null",
              "6|null|null",
              "7||null");
      // a bad row (line 2 of 3) writes nothing of the COPY, and the error names the line
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY copy_t FROM STDIN",
                      new java.io.StringReader("10\tok\t\\N\nx\tbad\t\\N\n11\tok\t\\N\n")))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22P02"))
          .hasMessageContaining("line 2");
      assertThatThrownBy(
              () -> copy.copyIn("COPY copy_t FROM STDIN", new java.io.StringReader("12\tshort\n")))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22P04"));
      // a bad last row without its newline is found at CopyDone: nothing is written either
      assertThatThrownBy(
              () ->
                  copy.copyIn(
                      "COPY copy_t FROM STDIN", new java.io.StringReader("13\tok\t\\N\n14\tlast")))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22P04"));
      st.execute("INSERT INTO copy_t VALUES (15, 'after', NULL)");
      assertThat(TestCluster.rows(st, "SELECT id FROM copy_t WHERE id >= 10"))
          .containsExactly("15");
      java.io.StringWriter out = new java.io.StringWriter();
      assertThat(
              copy.copyOut(
                  "COPY (SELECT id, v FROM copy_t WHERE id <= 7 ORDER BY id) TO STDOUT", out))
          .isEqualTo(7);
      assertThat(out.toString())
          .isEqualTo(
              "1\ttab\\there\n2\t\\N\n3\tback\\\\slash\n4\ta,b\n5\tline\\nbreak\n6\t\\N\n7\t\n");
      java.io.StringWriter csv = new java.io.StringWriter();
      copy.copyOut("COPY copy_t (id, v) TO STDOUT WITH (FORMAT csv, HEADER)", csv);
      assertThat(csv.toString().lines().toList())
          .startsWith("id,v")
          .contains("4,\"a,b\"", "6,", "7,\"\"")
          .hasSize(10); // a header, 8 rows, one of them with a newline inside its quotes
      assertThatThrownBy(() -> st.execute("COPY copy_t TO '/tmp/x'"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"));
    }
  }

  @Test
  void tableWithoutPrimaryKeyHidesRowId() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE nopk (a INT, b VARCHAR)");
      st.execute("INSERT INTO nopk VALUES (1, 'x'), (1, 'x')");
      assertThat(TestCluster.rows(st, "SELECT * FROM nopk")).containsExactly("1|x", "1|x");
      try (ResultSet rs = st.executeQuery("SELECT * FROM nopk")) {
        assertThat(rs.getMetaData().getColumnCount()).isEqualTo(2);
      }
    }
  }

  @Test
  void preparedStatementsWithParametersAcrossBinarySwitch() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE prep (id BIGINT PRIMARY KEY, price DECIMAL(10,2), ts TIMESTAMP, d DATE)");
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO prep VALUES (?, ?, ?, ?)")) {
        for (int i = 1; i <= 8; i++) {
          ins.setLong(1, i);
          ins.setBigDecimal(2, new java.math.BigDecimal(i + ".25"));
          ins.setObject(3, java.time.LocalDateTime.of(2024, 1, i, 3, 4, 5));
          ins.setObject(4, java.time.LocalDate.of(2024, 1, i));
          assertThat(ins.executeUpdate()).isEqualTo(1);
        }
      }
      try (PreparedStatement q =
          c.prepareStatement("SELECT id, price, ts, d FROM prep WHERE id = ?")) {
        for (int i = 1; i <= 8; i++) {
          q.setLong(1, i);
          try (ResultSet rs = q.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(i);
            assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(i + ".25");
            assertThat(rs.getObject(3, java.time.LocalDateTime.class))
                .isEqualTo(java.time.LocalDateTime.of(2024, 1, i, 3, 4, 5));
            assertThat(rs.getObject(4, java.time.LocalDate.class))
                .isEqualTo(java.time.LocalDate.of(2024, 1, i));
          }
        }
      }
    }
  }

  @Test
  void materializedViewOverTableAndOverView() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, cust INT, amount INT)");
      st.execute("INSERT INTO orders SELECT g, g % 3, g FROM generate_series(1, 9) g");
      st.execute(
          "CREATE MATERIALIZED VIEW per_cust AS SELECT cust, count(*) AS n, sum(amount) AS total FROM orders GROUP BY cust");
      st.execute(
          "CREATE MATERIALIZED VIEW big AS SELECT cust, total FROM per_cust WHERE total > 12");
      assertThat(TestCluster.rows(st, "SELECT * FROM per_cust ORDER BY cust"))
          .containsExactly("0|3|18", "1|3|12", "2|3|15");
      assertThat(TestCluster.rows(st, "SELECT * FROM big ORDER BY cust"))
          .containsExactly("0|18", "2|15");
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).contains("big", "per_cust");
      assertThatThrownBy(() -> st.execute("DROP TABLE orders"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("2BP01"));
      st.execute("DROP MATERIALIZED VIEW big");
      st.execute("DROP TABLE orders CASCADE");
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).doesNotContain("per_cust", "big");
    }
  }

  @Test
  void errorsCarrySqlStates() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.executeQuery("SELECT * FROM nosuch_table"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42P01"))
          .hasMessageContaining("relation \"nosuch_table\" does not exist");
      assertThatThrownBy(() -> st.executeQuery("SELEC 1"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"));
      assertThatThrownBy(() -> st.execute("CREATE VIEW v AS SELECT 1"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
          .hasMessageContaining("CREATE VIEW is not supported");
      st.execute("CREATE TABLE errs (a INT)");
      assertThatThrownBy(() -> st.execute("CREATE TABLE errs (a INT)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42P07"));
      assertThatThrownBy(() -> st.executeQuery("SELECT nosuch_col FROM errs"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42703"));
      assertThatThrownBy(() -> st.execute("SET nosuch_param = 1"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42704"));
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE MATERIALIZED VIEW lj AS SELECT * FROM errs a LEFT JOIN errs b ON a.a = b.a"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
          .hasMessageContaining("LEFT JOIN");
      // the connection still works
      assertThat(TestCluster.rows(st, "SELECT 1 + 1")).containsExactly("2");
    }
  }

  @Test
  void setShowAndCatalogViaMetadata() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      assertThat(TestCluster.rows(st, "SHOW background_ddl")).containsExactly("true");
      st.execute("SET backfill_rate_limit = 1000");
      assertThat(TestCluster.rows(st, "SHOW backfill_rate_limit")).containsExactly("1000");
      assertThatThrownBy(() -> st.execute("SET backfill_rate_limit = fast"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22023"));
      st.execute("CREATE TABLE meta_t (id INT PRIMARY KEY, name VARCHAR)");
      try (ResultSet rs = c.getMetaData().getTables(null, "public", "meta_t", null)) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("TABLE_NAME")).isEqualTo("meta_t");
        assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
      }
      try (ResultSet rs = c.getMetaData().getColumns(null, "public", "meta_t", "%")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("id");
        assertThat(rs.getString("TYPE_NAME")).isEqualTo("int4");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("name");
      }
      st.execute("CREATE TABLE meta_pk2 (a INT, b VARCHAR, c INT, PRIMARY KEY (b, a))");
      st.execute("CREATE TABLE meta_nopk (a INT)");
      try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", "meta_t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("id");
        assertThat(rs.getInt("KEY_SEQ")).isEqualTo(1);
        assertThat(rs.getString("PK_NAME")).isEqualTo("meta_t_pkey");
        assertThat(rs.next()).isFalse();
      }
      try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, null, "meta_pk2")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("b");
        assertThat(rs.getInt("KEY_SEQ")).isEqualTo(1);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("COLUMN_NAME")).isEqualTo("a");
        assertThat(rs.getInt("KEY_SEQ")).isEqualTo(2);
        assertThat(rs.next()).isFalse();
      }
      try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", "meta_nopk")) {
        assertThat(rs.next()).as("no declared key: only the hidden _row_id").isFalse();
      }
    }
  }
}
