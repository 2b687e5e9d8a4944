package dev.tideway.frontend.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.frontend.meta.Relation;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statements of the SQL surface not covered by {@link PgjdbcEndToEndTest}: the session's
 * backfill rate limit reaching meta, EXPLAIN, SHOW, DROP of each kind, generate_series on its own,
 * and a precise 0A000 naming the construct for each unsupported path.
 */
class SqlSurfaceTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new TestCluster();
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE base (id BIGINT PRIMARY KEY, g INT, v VARCHAR)");
      st.execute("INSERT INTO base SELECT x, x % 4, 'v' || x FROM generate_series(1, 20) AS x");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  private static int relationId(String name) {
    return cluster.cluster.relation(name).map(Relation::id).orElseThrow();
  }

  @Test
  void backfillRateLimitOfTheSessionTravelsWithTheCreate() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE MATERIALIZED VIEW rl_default AS SELECT id FROM base");
      st.execute("SET backfill_rate_limit = 500");
      st.execute("CREATE MATERIALIZED VIEW rl_500 AS SELECT id FROM base");
      st.execute("SET backfill_rate_limit TO 0");
      st.execute("CREATE MATERIALIZED VIEW rl_paused AS SELECT id FROM base");
      st.execute("SET backfill_rate_limit = DEFAULT");
      st.execute("CREATE MATERIALIZED VIEW rl_back AS SELECT id FROM base");
      assertThat(cluster.cluster.backfillRateLimit(relationId("rl_default"))).isEmpty();
      assertThat(cluster.cluster.backfillRateLimit(relationId("rl_500")))
          .isEqualTo(OptionalLong.of(500));
      assertThat(cluster.cluster.backfillRateLimit(relationId("rl_paused")))
          .isEqualTo(OptionalLong.of(0));
      assertThat(cluster.cluster.backfillRateLimit(relationId("rl_back"))).isEmpty();
      assertThatThrownBy(() -> st.execute("SET backfill_rate_limit = -1"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(TestCluster.rows(st, "SHOW backfill_rate_limit"))
          .as("a session variable: a new session starts at the default")
          .containsExactly("default");
    }
  }

  private static List<String> labels(Statement st, String sql) throws SQLException {
    try (java.sql.ResultSet rs = st.executeQuery(sql)) {
      java.sql.ResultSetMetaData md = rs.getMetaData();
      List<String> out = new java.util.ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.add(md.getColumnLabel(i));
      }
      return out;
    }
  }

  /** What PostgreSQL tools and ORMs send on connecting and in everyday queries. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void everydayPostgresqlFunctionsAndLiterals(boolean simple) throws Exception {
    try (Connection c = cluster.connect(simple);
        Statement st = c.createStatement()) {
      assertThat(TestCluster.rows(st, "SELECT current_schema(), current_schema"))
          .containsExactly("public|public");
      assertThat(TestCluster.rows(st, "SELECT now() IS NOT NULL, length('abcd'), $$it's$$"))
          .containsExactly("t|4|it's");
      assertThat(TestCluster.rows(st, "SELECT $tag$a $$ b$tag$")).containsExactly("a $$ b");
      assertThat(
              TestCluster.rows(
                  st,
                  "SELECT date_trunc('hour', TIMESTAMP '2024-01-02 03:04:05'),"
                      + " date_trunc('month', TIMESTAMP '2024-01-02 03:04:05')"))
          .containsExactly("2024-01-02 03:00:00|2024-01-01 00:00:00");
      assertThat(TestCluster.rows(st, "SELECT '2024-01-02 03:04:05+02'::timestamptz"))
          .containsExactly("2024-01-02 01:04:05+00");
      assertThat(TestCluster.rows(st, "SELECT '2024-01-02 03:04:05+02'::timestamp"))
          .containsExactly("2024-01-02 03:04:05");
      assertThat(TestCluster.rows(st, "SELECT substr('hello', 2, 3), substr('hello', 3)"))
          .containsExactly("ell|llo");
      assertThat(
              TestCluster.rows(
                  st, "SELECT array_agg(v ORDER BY v) FROM (VALUES ('a'), ('b c'), ('{')) AS t(v)"))
          .containsExactly("{a,\"b c\",\"{\"}");
      assertThat(TestCluster.rows(st, "SHOW ALL")).anyMatch(r -> r.startsWith("timezone|"));
      assertThatThrownBy(() -> st.executeQuery("SELECT date_trunc('fortnight', now())"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }
  }

  /**
   * {@code bigint % int} (a generated series modulo a literal: the bulk INSERT users write) keeps
   * PostgreSQL's values; it ran through BigDecimal at 3 µs a row.
   */
  @Test
  void moduloOfMixedIntegerTypesKeepsItsValuesAndType() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(
              TestCluster.rows(
                  st,
                  "SELECT g % 1000, -g % 7, CAST(7 AS SMALLINT) % g, g % CAST(NULL AS INT)"
                      + " FROM generate_series(9000000001, 9000000001) AS g"))
          .containsExactly("1|-6|7|null");
      assertThat(TestCluster.rows(st, "SELECT 9000000001 % g FROM generate_series(7, 7) AS g"))
          .containsExactly("6");
    }
  }

  @Test
  void resultColumnsAreNamedAsPostgresqlNamesThem() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(labels(st, "SELECT count(*), sum(g), min(v), g + 1, 1, true FROM base GROUP BY g"))
          .containsExactly("count", "sum", "min", "?column?", "?column?", "bool");
      assertThat(
              labels(
                  st,
                  "SELECT id::int, CAST(g AS BIGINT), 1::bigint, CASE WHEN g = 1 THEN 1"
                      + " END, upper(v) FROM base"))
          .containsExactly("id", "g", "int8", "case", "upper");
      assertThat(labels(st, "SELECT *, count(*) OVER () FROM base"))
          .containsExactly("id", "g", "v", "count");
      assertThat(labels(st, "SELECT (SELECT max(id) FROM base), id AS one FROM base"))
          .containsExactly("max", "one");
      assertThat(TestCluster.rows(st, "SELECT 1 AS one, 2 AS value, 3 AS year"))
          .containsExactly("1|2|3");
      assertThat(labels(st, "SELECT 1 AS one, 2 AS value, 3 AS year"))
          .containsExactly("one", "value", "year");
      assertThat(labels(st, "SELECT CAST('2020-01-01' AS date) AS d")).containsExactly("d");
      st.execute(
          "CREATE MATERIALIZED VIEW names_mv AS SELECT g, count(*), sum(id), g * 2 FROM base"
              + " GROUP BY g");
      assertThat(labels(st, "SELECT * FROM names_mv"))
          .as("a view's columns get the same names")
          .containsExactly("g", "count", "sum", "?column?");
      assertThat(TestCluster.rows(st, "SELECT count FROM names_mv WHERE g = 1"))
          .containsExactly("5");
      st.execute("DROP MATERIALIZED VIEW names_mv");
      // a plain aggregate view: no projection of its own survives planning to carry the names
      st.execute(
          "CREATE MATERIALIZED VIEW agg_names AS SELECT g, count(*), max(id) FROM base GROUP BY g");
      assertThat(labels(st, "SELECT * FROM agg_names")).containsExactly("g", "count", "max");
      st.execute("DROP MATERIALIZED VIEW agg_names");
    }
  }

  @Test
  void explainShowsThePkRangePushedIntoEachScan() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(TestCluster.rows(st, "EXPLAIN SELECT * FROM base WHERE id = 5"))
          .contains("Scan base: point lookup id = 5");
      assertThat(
              TestCluster.rows(st, "EXPLAIN SELECT * FROM base WHERE id BETWEEN 3 AND 7 AND g = 1"))
          .contains("Scan base: pk range id >= 3 AND id <= 7");
      assertThat(TestCluster.rows(st, "EXPLAIN SELECT count(*) FROM base WHERE 10 < id"))
          .contains("Scan base: pk range id > 10");
      assertThat(TestCluster.rows(st, "EXPLAIN SELECT * FROM base WHERE id * 2 = 10"))
          .as("an expression over the pk column is not a range")
          .contains("Scan base: full scan");
      assertThat(TestCluster.rows(st, "EXPLAIN SELECT * FROM base WHERE id = 5.5"))
          .contains("Scan base: full scan");
      assertThat(TestCluster.rows(st, "SELECT * FROM base WHERE id = 5.5")).isEmpty();
      assertThat(TestCluster.rows(st, "SELECT v FROM base WHERE id BETWEEN 3 AND 7 AND g = 1"))
          .containsExactly("v5");
      try (java.sql.PreparedStatement ps =
          c.prepareStatement("SELECT v FROM base WHERE id >= ? AND id < ?")) {
        ps.setLong(1, 18);
        ps.setLong(2, 30);
        List<String> got = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            got.add(rs.getString(1));
          }
        }
        assertThat(got)
            .as("bound parameters narrow the scan too")
            .containsExactlyInAnyOrder("v18", "v19", "v20");
      }
    }
  }

  @Test
  void implicitFlushCommitsEachWriteBeforeTheStatementEnds() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE imp (a INT)");
      long before = cluster.cluster.flushCount();
      st.execute("INSERT INTO imp VALUES (1)");
      st.execute("INSERT INTO imp VALUES (0)");
      assertThat(cluster.cluster.flushCount()).as("off by default").isEqualTo(before);
      // the session reads its own writes: its first read after a write waits for one checkpoint
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM imp")).containsExactly("2");
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM imp")).containsExactly("2");
      assertThat(cluster.cluster.flushCount()).isEqualTo(before + 1);
      st.execute("DELETE FROM imp WHERE a = 0");
      before = cluster.cluster.flushCount();
      st.execute("SET RW_IMPLICIT_FLUSH TO true");
      st.execute("INSERT INTO imp VALUES (2)");
      st.execute("UPDATE imp SET a = 3 WHERE a = 2");
      st.execute("DELETE FROM imp WHERE a = 3");
      assertThat(cluster.cluster.flushCount()).isEqualTo(before + 3);
      st.execute("SET QUERY_MODE TO local");
      assertThatThrownBy(() -> st.execute("SET QUERY_MODE TO fastest"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }
  }

  @Test
  void writesARecoveryDiscardedFailTheNextFlushOrReadOnceNamingTheirTablesAndRows()
      throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE lost_a (k INT PRIMARY KEY, v INT)");
      st.execute("CREATE TABLE lost_b (v INT)");
      st.execute("INSERT INTO lost_a VALUES (1, 10)");
      st.execute("FLUSH");
      st.execute("INSERT INTO lost_a VALUES (2, 20), (3, 30)");
      st.execute("INSERT INTO lost_b VALUES (7)");
      cluster.cluster.recover();
      assertThatThrownBy(() -> st.execute("FLUSH"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("40000");
                assertThat(e.getMessage())
                    .contains("FLUSH: a recovery discarded 3 row change(s)")
                    .contains("2 in lost_a, 1 in lost_b")
                    .contains("run those statements again");
              });
      assertThat(TestCluster.rows(st, "SELECT k FROM lost_a")).containsExactly("1");
      st.execute("FLUSH"); // reported once: nothing is unflushed any more

      // a write the flush committed is not reported when a later recovery happens
      st.execute("INSERT INTO lost_a VALUES (4, 40)");
      st.execute("FLUSH");
      cluster.cluster.recover();
      st.execute("FLUSH");

      // the read that waits for this session's writes reports them instead of missing them
      st.execute("UPDATE lost_a SET v = 0 WHERE k = 1");
      cluster.cluster.recover();
      assertThatThrownBy(() -> st.executeQuery("SELECT v FROM lost_a WHERE k = 1"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e ->
                  assertThat(e.getMessage())
                      .contains("this statement reads tables this session wrote")
                      .contains("2 in lost_a"));
      assertThat(TestCluster.rows(st, "SELECT k, v FROM lost_a"))
          .containsExactlyInAnyOrder("1|10", "4|40");

      // with RW_IMPLICIT_FLUSH each write is checked before its statement ends
      st.execute("SET RW_IMPLICIT_FLUSH TO true");
      st.execute("INSERT INTO lost_b VALUES (8)");
      cluster.cluster.recover();
      assertThat(TestCluster.rows(st, "SELECT v FROM lost_b")).containsExactly("8");
    }
  }

  @Test
  void explainPrintsTheStreamPlanAndItsFragments() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      List<String> plan =
          TestCluster.rows(
              st,
              "EXPLAIN CREATE MATERIALIZED VIEW ex AS SELECT g, count(*) AS n FROM base GROUP BY g");
      assertThat(plan.get(0)).startsWith("StreamMaterialize { table: ex, columns: [g, n]");
      assertThat(String.join("\n", plan))
          .contains("StreamHashAgg { group: [g], aggs: [count(*)] }")
          .contains("StreamExchange { dist: HASH[g] }")
          .contains("StreamStreamScan { table: " + relationId("base"))
          .contains("Fragments: 2");
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).doesNotContain("ex");
      assertThat(String.join("\n", TestCluster.rows(st, "EXPLAIN SELECT * FROM base WHERE g = 1")))
          .as("a batch query's plan comes from the batch engine")
          .contains("base");
    }
  }

  @Test
  void showAndDropEachKind() throws Exception {
    try (Connection c = cluster.connect(true);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE drop_t (a INT)");
      st.execute(
          "CREATE SOURCE drop_s (id BIGINT) WITH (connector = 'datagen', datagen.rows.per.second = '1')");
      st.execute("CREATE MATERIALIZED VIEW drop_m AS SELECT a FROM drop_t");
      assertThat(TestCluster.rows(st, "SHOW TABLES")).contains("drop_t").doesNotContain("drop_m");
      assertThat(TestCluster.rows(st, "SHOW SOURCES")).contains("drop_s");
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).contains("drop_m");
      assertThatThrownBy(() -> st.execute("DROP TABLE drop_m"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42809"))
          .hasMessageContaining("\"drop_m\" is not a table");
      st.execute("DROP MATERIALIZED VIEW drop_m");
      st.execute("DROP SOURCE drop_s");
      st.execute("DROP TABLE drop_t");
      st.execute("DROP TABLE IF EXISTS drop_t");
      assertThat(st.getWarnings().getMessage()).contains("does not exist, skipping");
      assertThatThrownBy(() -> st.execute("DROP TABLE drop_t"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
      assertThat(TestCluster.rows(st, "SHOW TABLES")).doesNotContain("drop_t");
      assertThat(TestCluster.rows(st, "SHOW SOURCES")).doesNotContain("drop_s");
    }
  }

  @Test
  void generateSeriesAloneAndInInsertSelect() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(TestCluster.rows(st, "SELECT * FROM generate_series(1, 4)"))
          .containsExactly("1", "2", "3", "4");
      st.execute("CREATE TABLE gs (a INT, b INT)");
      assertThat(
              st.executeUpdate(
                  "INSERT INTO gs (b, a) SELECT x * 10, x FROM generate_series(1, 3) AS x"))
          .isEqualTo(3);
      assertThat(TestCluster.rows(st, "SELECT a, b FROM gs ORDER BY a"))
          .containsExactly("1|10", "2|20", "3|30");
      assertThat(st.executeUpdate("UPDATE gs SET b = b + a WHERE a >= 2")).isEqualTo(2);
      assertThat(st.executeUpdate("DELETE FROM gs WHERE b = 10")).isEqualTo(1);
      assertThat(TestCluster.rows(st, "SELECT a, b FROM gs ORDER BY a"))
          .as("UPDATE and DELETE on a table keyed by the hidden _row_id")
          .containsExactly("2|22", "3|33");
    }
  }

  @Test
  void tumbleAndHopRunInBatchQueriesAndInViews() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE win (id INT PRIMARY KEY, ts TIMESTAMP)");
      st.execute(
          "INSERT INTO win SELECT x, TIMESTAMP '2024-01-01 00:00:00' + x * INTERVAL '4' SECOND"
              + " FROM generate_series(1, 9) AS x");
      String tumble =
          "SELECT window_start, count(*) AS n FROM TUMBLE(win, ts, INTERVAL '10' SECOND)"
              + " GROUP BY window_start";
      List<String> expected =
          List.of(
              "2024-01-01 00:00:00|2",
              "2024-01-01 00:00:10|2",
              "2024-01-01 00:00:20|3",
              "2024-01-01 00:00:30|2");
      assertThat(TestCluster.rows(st, tumble + " ORDER BY window_start")).isEqualTo(expected);
      st.execute("CREATE MATERIALIZED VIEW win_t AS " + tumble);
      assertThat(TestCluster.rows(st, "SELECT * FROM win_t ORDER BY window_start"))
          .isEqualTo(expected);
      assertThat(
              TestCluster.rows(
                  st,
                  "SELECT window_end, max(id) FROM HOP(win, ts, INTERVAL '10' SECOND,"
                      + " INTERVAL '20' SECOND) GROUP BY window_end ORDER BY window_end"))
          .containsExactly(
              "2024-01-01 00:00:10|2",
              "2024-01-01 00:00:20|4",
              "2024-01-01 00:00:30|7",
              "2024-01-01 00:00:40|9",
              "2024-01-01 00:00:50|9");
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          CREATE VIEW v AS SELECT 1                                         | CREATE VIEW is not supported
          CREATE INDEX i ON base (g)                                        | CREATE INDEX is not supported
          CREATE SINK s AS SELECT 1 WITH (connector = 'pulsar')             | a sink to connector 'pulsar'
          CREATE TABLE t2 AS SELECT 1                                       | CREATE TABLE AS is not supported
          CREATE TABLE t3 (a INT DEFAULT 1)                                 | column DEFAULT (column "a") is not supported
          CREATE TABLE t4 (a INT) WITH (connector = 'pulsar')               | fed by connector 'pulsar'
          CREATE SOURCE k WITH (connector = 'pulsar')                       | connector 'pulsar'
          ALTER TABLE base ADD COLUMN c INT                                 | ALTER statement (only ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT) is not supported
          TRUNCATE base                                                     | TRUNCATE statement is not supported
          COPY base TO '/tmp/base.csv'                                      | COPY TO a file on the server is not supported
          DROP VIEW v                                                       | DROP VIEW is not supported
          INSERT INTO base VALUES (99, 1, 'x') RETURNING id                 | RETURNING
          CREATE MATERIALIZED VIEW m1 AS SELECT * FROM base b1 LEFT JOIN base b2 ON b1.id = b2.id | LEFT JOIN
          CREATE MATERIALIZED VIEW m2 AS SELECT id FROM base LIMIT 3        | LIMIT/OFFSET in a materialized view
          CREATE MATERIALIZED VIEW m3 AS SELECT id FROM base UNION ALL SELECT id FROM base | UNION in a materialized view
          CREATE MATERIALIZED VIEW m4 AS SELECT b1.id FROM base b1 JOIN base b2 ON b1.id < b2.id | without an equality condition
          CREATE MATERIALIZED VIEW m5 AS SELECT g FROM base GROUP BY ROLLUP (g)  | GROUPING SETS, ROLLUP and CUBE
          CREATE MATERIALIZED VIEW m6 AS SELECT count(*) FILTER (WHERE g > 1) FROM base | FILTER (WHERE ...) on aggregates
          CREATE MATERIALIZED VIEW m7 AS SELECT id, row_number() OVER (ORDER BY id) FROM base | in a materialized view
          """)
  void unsupportedSqlNamesTheConstructWith0A000(String sql, String fragment) throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.execute(sql))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining(fragment);
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM base"))
          .as("the session still works and nothing was written")
          .containsExactly("20");
    }
  }
}
