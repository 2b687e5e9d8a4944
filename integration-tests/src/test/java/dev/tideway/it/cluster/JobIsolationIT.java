package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.cli.local.Probes;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.StreamActor;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose own actors keep failing is isolated instead of stalling the cluster: every failure
 * restarts the whole graph, so without isolation no other job would commit again. A fail point
 * fails the actors of one job (every time they pull a message); the test keeps a ledger of the
 * writes the cluster acknowledged (a FLUSH that succeeded) and checks the table and the healthy
 * views against it, and that the recoveries stop once the job is isolated.
 */
class JobIsolationIT {
  @TempDir Path dir;

  @AfterEach
  void resetFailPoints() {
    FailPoints.reset();
  }

  @Test
  void aViewWhoseActorsKeepFailingIsPausedAndTheRestKeepsCommitting() throws Exception {
    Playground.Options o = PlaygroundIT.options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT g, g * 7 FROM generate_series(1, 1000) AS g");
      st.execute("FLUSH");
      st.execute("CREATE MATERIALIZED VIEW good AS SELECT count(*) AS n, sum(v) AS s FROM t");
      st.execute(
          "CREATE MATERIALIZED VIEW bad AS SELECT v % 10 AS g, count(*) AS n FROM t GROUP BY v % 10");
      st.execute("CREATE MATERIALIZED VIEW bad_down AS SELECT sum(n) AS total FROM bad");
      int badId = id(st, "bad");
      List<String> before = PlaygroundIT.rows(st, "SELECT * FROM bad");

      FailPoints.enable(StreamActor.FAIL_JOB, new FailPoints.FailScope(badId));
      // The ledger: rows whose FLUSH succeeded must be in t; rows whose FLUSH failed must not.
      List<Integer> acknowledged = new ArrayList<>(rangeList(1, 1000));
      int next = 1001;
      long deadline = Clock.system().currentTimeMillis() + 120_000;
      while (!pausedJobs(st).containsKey("bad")) {
        assertThat(Clock.system().currentTimeMillis())
            .as("bad is paused within 120 s")
            .isLessThan(deadline);
        next = writeRound(st, next, acknowledged);
      }
      Map<String, String> paused = pausedJobs(st);
      assertThat(paused.get("bad")).startsWith("Paused: its actors failed 3 times in a row");
      assertThat(paused.get("bad_down")).contains("upstream job " + badId + " paused");
      assertThat(paused).doesNotContainKeys("good", "t");

      // Isolated: no further recovery, every write commits, the healthy view follows the table.
      double recoveries = Probes.recoveries(o.metaHttpPort());
      for (int i = 0; i < 5; i++) {
        int start = next;
        next = writeRound(st, next, acknowledged);
        assertThat(acknowledged).as("round %s acknowledged", i).contains(start);
      }
      assertThat(Probes.recoveries(o.metaHttpPort()))
          .as("no recovery once the failing job is paused")
          .isEqualTo(recoveries);
      assertThat(PlaygroundIT.rows(st, "SELECT k FROM t"))
          .as("the table holds exactly the acknowledged writes")
          .isEqualTo(acknowledged.stream().map(String::valueOf).sorted().toList());
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM good"))
          .isEqualTo(PlaygroundIT.rows(st, "SELECT count(*) AS n, sum(v) AS s FROM t"));

      // The paused view keeps what it held (it failed from its first message on); nothing reads
      // it any more, and it is dropped without a recovery.
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM bad")).isEqualTo(before);
      assertThatThrownBy(() -> st.execute("CREATE MATERIALIZED VIEW more AS SELECT * FROM bad"))
          .hasMessageContaining("paused");
      st.execute("DROP MATERIALIZED VIEW bad_down");
      st.execute("DROP MATERIALIZED VIEW bad");
      FailPoints.reset();
      st.execute(
          "CREATE MATERIALIZED VIEW bad AS SELECT v % 10 AS g, count(*) AS n FROM t GROUP BY v % 10");
      next = writeRound(st, next, acknowledged);
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM bad"))
          .isEqualTo(
              PlaygroundIT.rows(st, "SELECT v % 10 AS g, count(*) AS n FROM t GROUP BY v % 10"));
      assertThat(Probes.recoveries(o.metaHttpPort()))
          .as("dropping a paused job and creating it again recovers nothing")
          .isEqualTo(recoveries);
      assertThat(pausedJobs(st)).isEmpty();
    }
  }

  @Test
  void aCreatingViewWhoseActorsKeepFailingFailsItsCreate() throws Exception {
    Playground.Options o = PlaygroundIT.options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p);
        Connection ddl = PlaygroundIT.connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT g, g FROM generate_series(1, 5000) AS g");
      st.execute("FLUSH");
      st.execute("CREATE MATERIALIZED VIEW good AS SELECT count(*) AS n FROM t");
      CompletableFuture<Void> create =
          CompletableFuture.runAsync(
              () -> {
                try (Statement s = ddl.createStatement()) {
                  s.execute("SET backfill_rate_limit = 200");
                  s.execute("CREATE MATERIALIZED VIEW slow AS SELECT k, v * 2 AS w FROM t");
                } catch (SQLException e) {
                  throw new RuntimeException(e.getMessage(), e);
                }
              });
      int slowId = -1;
      long deadline = Clock.system().currentTimeMillis() + 30_000;
      while (slowId < 0) {
        assertThat(Clock.system().currentTimeMillis())
            .as("slow is being created")
            .isLessThan(deadline);
        try (ResultSet rs = st.executeQuery("SHOW JOBS")) {
          while (rs.next()) {
            if (rs.getString(2).contains("slow")) {
              slowId = rs.getInt(1);
            }
          }
        }
      }
      FailPoints.enable(StreamActor.FAIL_JOB, new FailPoints.FailScope(slowId));
      assertThatThrownBy(() -> create.get(120, TimeUnit.SECONDS))
          .hasMessageContaining("'slow' failed: its actors failed 3 times");
      FailPoints.reset();
      double recoveries = Probes.recoveries(o.metaHttpPort());
      st.execute("INSERT INTO t VALUES (5001, 5001)");
      st.execute("FLUSH");
      assertThat(PlaygroundIT.rows(st, "SHOW MATERIALIZED VIEWS")).containsExactly("good");
      assertThat(PlaygroundIT.rows(st, "SHOW JOBS")).isEmpty();
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM good")).containsExactly("5001");
      assertThat(Probes.recoveries(o.metaHttpPort())).isEqualTo(recoveries);
      st.execute("CREATE MATERIALIZED VIEW slow AS SELECT k, v * 2 AS w FROM t");
      assertThat(PlaygroundIT.rows(st, "SELECT count(*) FROM slow")).containsExactly("5001");
    }
  }

  /** One INSERT of ten rows and a FLUSH; the rows join the ledger when the FLUSH succeeded. */
  private static int writeRound(Statement st, int from, List<Integer> acknowledged) {
    StringBuilder values = new StringBuilder();
    for (int k = from; k < from + 10; k++) {
      values
          .append(k == from ? "" : ", ")
          .append("(")
          .append(k)
          .append(", ")
          .append(k * 7)
          .append(")");
    }
    try {
      st.execute("INSERT INTO t VALUES " + values);
      st.execute("FLUSH");
      acknowledged.addAll(rangeList(from, from + 9));
    } catch (SQLException e) {
      // a recovery discarded the write (40000), or the cluster was recovering: not acknowledged
    }
    return from + 10;
  }

  private static List<Integer> rangeList(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }

  private static int id(Statement st, String mv) throws SQLException {
    try (ResultSet rs =
        st.executeQuery(
            "SELECT id FROM rw_catalog.rw_materialized_views WHERE name = '" + mv + "'")) {
      assertThat(rs.next()).as("%s exists", mv).isTrue();
      return rs.getInt(1);
    }
  }

  /** The paused jobs of SHOW JOBS: the view's name (from its statement) to the progress column. */
  private static Map<String, String> pausedJobs(Statement st) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (ResultSet rs = st.executeQuery("SHOW JOBS")) {
      while (rs.next()) {
        String progress = rs.getString(3);
        if (progress.startsWith("Paused")) {
          String name =
              rs.getString(2).replaceFirst("(?is)^CREATE MATERIALIZED VIEW (\\w+).*", "$1");
          out.put(name, progress);
        }
      }
    }
    return out;
  }
}
