package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.backfill.core.BackfillFaults;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backfill under crashes on the real playground: a background materialized view backfills a table
 * that another session keeps changing (random inserts, updates, deletes), and its backfill actor is
 * crashed three times (a fail point throws in the middle of the snapshot read). Every crash must
 * start a global recovery; the job must resume from its persisted positions (consumed rows never
 * fall back, so never from zero), its reported progress must never go backwards, and the finished
 * view must equal a batch recomputation of its query.
 */
class BackfillRecoveryIT {
  private static final Pattern RECOVERIES =
      Pattern.compile("(?m)^tideway_recovery_total\\{[^}]*\\} ([0-9.eE+]+)$");

  @TempDir Path dir;

  @AfterEach
  void resetFailPoints() {
    FailPoints.reset();
  }

  @Test
  void crashedBackfillActorsResumeFromPersistedPositionsAndTheViewEndsExact() throws Exception {
    long seed = Long.getLong("tideway.seed", System.nanoTime());
    System.out.println("BackfillRecoveryIT seed=" + seed + " (replay with -Dtideway.seed)");
    Playground.Options o = PlaygroundIT.options(dir);
    String query = "SELECT v, count(*) AS n, sum(k) AS s FROM t WHERE v < 90 GROUP BY v";
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p);
        Statement st = c.createStatement();
        Connection wc = PlaygroundIT.connect(p);
        Statement writer = wc.createStatement()) {
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT x, x % 100 FROM generate_series(1, 30000) AS x");
      st.execute("FLUSH");
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 1000");
      st.execute("CREATE MATERIALIZED VIEW mv AS " + query);

      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong ok = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      Thread churn = new Thread(() -> churn(writer, new SplittableRandom(seed), stop, ok, failed));
      churn.start();
      double lastRatio = -1;
      long lastConsumed = -1;
      int crashes = 0;
      double[] crashAt = {0.15, 0.4, 0.65};
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
      try {
        while (System.nanoTime() < deadline) {
          List<String> row =
              PlaygroundIT.rows(st, "SELECT ratio, consumed_rows FROM rw_catalog.rw_ddl_progress");
          if (row.isEmpty()) {
            break; // created
          }
          String[] f = row.get(0).split("\\|");
          double ratio = "null".equals(f[0]) ? 0 : Double.parseDouble(f[0]);
          long consumed = "null".equals(f[1]) ? 0 : Long.parseLong(f[1]);
          assertThat(ratio)
              .as("progress never goes backwards (%s)", row)
              .isGreaterThanOrEqualTo(lastRatio);
          assertThat(consumed)
              .as("consumed rows never fall back after a crash (%s)", row)
              .isGreaterThanOrEqualTo(lastConsumed);
          lastRatio = ratio;
          lastConsumed = consumed;
          if (crashes < crashAt.length && ratio > crashAt[crashes]) {
            double before = recoveries(o.metaHttpPort());
            FailPoints.enable(BackfillFaults.BEFORE_SNAPSHOT_READ, new FailPoints.FailOnHit(1));
            awaitRecovery(o.metaHttpPort(), before);
            crashes++;
          }
          TimeUnit.MILLISECONDS.sleep(200);
        }
      } finally {
        stop.set(true);
        churn.join(60_000);
      }
      assertThat(crashes)
          .as("the backfill actor was crashed three times mid-backfill")
          .isEqualTo(3);
      assertThat(PlaygroundIT.rows(st, "SELECT ratio FROM rw_catalog.rw_ddl_progress"))
          .as("the job finished")
          .isEmpty();
      assertThat(ok.get()).as("the concurrent writer got work done").isGreaterThan(10);
      st.execute("FLUSH");
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM mv"))
          .as(
              "the view equals its query recomputed (writer: %d ok, %d failed)",
              ok.get(), failed.get())
          .isEqualTo(PlaygroundIT.rows(st, query));
    }
  }

  /**
   * Random small inserts, updates and deletes until told to stop; a failed statement is counted.
   */
  private static void churn(
      Statement st, SplittableRandom rnd, AtomicBoolean stop, AtomicLong ok, AtomicLong failed) {
    int next = 30001;
    while (!stop.get()) {
      int k = 1 + rnd.nextInt(30000);
      String sql =
          switch (rnd.nextInt(3)) {
            case 0 -> "INSERT INTO t VALUES (" + next++ + ", " + rnd.nextInt(100) + ")";
            case 1 -> "UPDATE t SET v = " + rnd.nextInt(100) + " WHERE k = " + k;
            default -> "DELETE FROM t WHERE k = " + k;
          };
      try {
        st.execute(sql);
        ok.incrementAndGet();
      } catch (SQLException e) {
        failed.incrementAndGet(); // a write may fail while the cluster recovers
      }
    }
  }

  /** Waits until the fail point fired and the meta service counted one more recovery. */
  private static void awaitRecovery(int httpPort, double before) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (FailPoints.hits(BackfillFaults.BEFORE_SNAPSHOT_READ) < 1
        || recoveries(httpPort) <= before) {
      assertThat(System.nanoTime())
          .as("the crashed backfill actor started a recovery within 60 s")
          .isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static double recoveries(int httpPort) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    double sum = 0;
    Matcher m = RECOVERIES.matcher(r.body());
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
    }
    return sum;
  }
}
