package dev.tideway.frontend.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SHOW JOBS, rw_catalog.rw_ddl_progress, CANCEL JOBS and Ctrl-C of a foreground CREATE MATERIALIZED
 * VIEW, with the in-memory cluster holding jobs so that the test drives progress.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a held job left behind must not hang the build
class ProgressSurfaceTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new TestCluster();
    cluster.cluster.holdJobs(true);
    cluster.cluster.setProgressIntervalMillis(100);
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE src (id BIGINT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO src SELECT g, g % 5 FROM generate_series(1, 100) AS g");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  private static long onlyJobId(Statement st) throws SQLException {
    List<String> jobs = TestCluster.rows(st, "SHOW JOBS");
    assertThat(jobs).hasSize(1);
    return Long.parseLong(jobs.get(0).split("\\|")[0]);
  }

  @Test
  void backgroundJobProgressesInShowJobsAndDdlProgressThenCompletes() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("CREATE MATERIALIZED VIEW bg AS SELECT v, count(*) AS n FROM src GROUP BY v");
      long id = onlyJobId(st);
      cluster.cluster.advanceJob(id, 0, 1000);
      assertThat(TestCluster.rows(st, "SHOW JOBS"))
          .containsExactly(
              id
                  + "|CREATE MATERIALIZED VIEW bg AS SELECT v, count(*) AS n FROM src GROUP BY v|0.00% (0/1000)|BACKGROUND");
      cluster.cluster.advanceJob(id, 250, 1000);
      assertThat(TestCluster.rows(st, "SHOW JOBS").get(0)).contains("|25.00% (250/1000)|");
      assertThat(
              TestCluster.rows(
                  st,
                  "SELECT ddl_id, create_type, progress, phase, consumed_rows, upstream_rows,"
                      + " denominator_exact, ratio FROM rw_catalog.rw_ddl_progress"))
          .containsExactly(id + "|BACKGROUND|25.00% (250/1000)|SNAPSHOT|250|1000|t|0.25");
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).doesNotContain("bg");
      cluster.cluster.advanceJob(id, 1000, 1000);
      assertThat(TestCluster.rows(st, "SHOW JOBS").get(0))
          .as("never 100%% before commit")
          .contains("|99.99% (1000/1000)|");
      cluster.cluster.finishJob(id);
      assertThat(TestCluster.rows(st, "SHOW JOBS")).isEmpty();
      assertThat(TestCluster.rows(st, "SELECT n FROM bg WHERE v = 1")).containsExactly("20");
    }
  }

  @Test
  void cancelJobsStopsABackgroundJob() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("CREATE MATERIALIZED VIEW doomed AS SELECT id FROM src");
      long id = onlyJobId(st);
      assertThat(TestCluster.rows(st, "CANCEL JOBS " + id)).containsExactly(String.valueOf(id));
      assertThat(TestCluster.rows(st, "SHOW JOBS")).isEmpty();
      assertThat(TestCluster.rows(st, "CANCEL JOBS " + id)).as("already gone").isEmpty();
      assertThat(TestCluster.rows(st, "SHOW MATERIALIZED VIEWS")).doesNotContain("doomed");
    }
  }

  @Test
  void foregroundCreateSendsProgressNoticesAndCancelStopsIt() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement fg = c.createStatement();
        Connection other = cluster.connect(false);
        Statement st = other.createStatement()) {
      CompletableFuture<Void> create =
          CompletableFuture.runAsync(
              () -> {
                try {
                  fg.execute("CREATE MATERIALIZED VIEW fg AS SELECT v FROM src WHERE v > 2");
                } catch (SQLException e) {
                  throw new RuntimeException(e);
                }
              });
      long id = -1;
      for (int i = 0; i < 200 && id < 0; i++) {
        List<String> jobs = TestCluster.rows(st, "SHOW JOBS");
        if (!jobs.isEmpty()) {
          id = Long.parseLong(jobs.get(0).split("\\|")[0]);
        } else {
          TimeUnit.MILLISECONDS.sleep(50);
        }
      }
      assertThat(id).isPositive();
      assertThat(TestCluster.rows(st, "SHOW JOBS").get(0)).endsWith("|FOREGROUND");
      cluster.cluster.advanceJob(id, 10, 100);
      TimeUnit.MILLISECONDS.sleep(400);
      fg.cancel(); // what psql's Ctrl-C sends: a CancelRequest on a new connection
      assertThatThrownBy(() -> create.get(20, TimeUnit.SECONDS))
          .hasCauseInstanceOf(RuntimeException.class)
          .satisfies(
              e ->
                  assertThat(((SQLException) e.getCause().getCause()).getSQLState())
                      .isEqualTo("57014"));
      SQLWarning w = fg.getWarnings();
      assertThat((Object) w).as("progress notices while waiting").isNotNull();
      StringBuilder all = new StringBuilder();
      for (SQLWarning x = w; x != null; x = x.getNextWarning()) {
        all.append(x.getMessage()).append('\n');
      }
      assertThat(all.toString()).contains("CREATE MATERIALIZED VIEW fg: 10.00% (10/100)");
      assertThat(TestCluster.rows(st, "SHOW JOBS")).isEmpty();
    }
  }

  @Test
  void tableStatsCountLiveRows() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      assertThat(
              TestCluster.rows(
                  st,
                  "SELECT s.live_rows FROM rw_catalog.rw_table_stats s JOIN rw_catalog.rw_tables t ON s.id = t.id WHERE t.name = 'src'"))
          .containsExactly("100");
    }
  }

  @Test
  void alterBackfillRateLimitThrottlesOnlyACreatingView() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 50");
      st.execute("CREATE MATERIALIZED VIEW throttled AS SELECT id FROM src");
      long id = onlyJobId(st);
      try {
        alterWhileCreating(st, id);
      } finally {
        cluster.cluster.finishJob(id);
      }
    }
  }

  private static void alterWhileCreating(Statement st, long id) throws SQLException {
    assertThat(cluster.cluster.backfillRateLimit((int) id)).isEqualTo(OptionalLong.of(50));
    st.execute("ALTER MATERIALIZED VIEW throttled SET BACKFILL_RATE_LIMIT = 0");
    assertThat(cluster.cluster.backfillRateLimit((int) id)).isEqualTo(OptionalLong.of(0));
    st.execute("ALTER MATERIALIZED VIEW throttled SET BACKFILL_RATE_LIMIT TO DEFAULT");
    assertThat(cluster.cluster.backfillRateLimit((int) id)).isEmpty();
    assertThatThrownBy(
            () -> st.execute("ALTER MATERIALIZED VIEW throttled SET BACKFILL_RATE_LIMIT = -1"))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
  }

  @Test
  void alterBackfillRateLimitOfACreatedOrUnknownViewFails() throws Exception {
    try (Connection c = cluster.connect(false);
        Statement st = c.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("CREATE MATERIALIZED VIEW created_mv AS SELECT id FROM src");
      cluster.cluster.finishJob(onlyJobId(st));
      assertThatThrownBy(
              () -> st.execute("ALTER MATERIALIZED VIEW created_mv SET BACKFILL_RATE_LIMIT = 5"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"))
          .hasMessageContaining("already created");
      assertThatThrownBy(
              () -> st.execute("ALTER MATERIALIZED VIEW nosuch SET BACKFILL_RATE_LIMIT = 5"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42P01"));
    }
  }
}
