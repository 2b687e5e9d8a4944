package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cluster of separate processes from the shaded jar (DESIGN §9): ZooKeeper, two meta
 * processes, two compute nodes and a frontend on loopback. A table is loaded, a background
 * materialized view backfills it at a limited rate, and the meta leader is killed mid-backfill: the
 * standby must take over, the job's progress must never go backwards, and the view must end equal
 * to a batch recomputation of its query. Then a second view's backfill survives three kills of a
 * compute node (each restarted on its address): it resumes from its persisted positions and ends
 * exact. Each compute node gets its own metrics port: with the default one, the second node failed
 * to start and this test ran on one compute node without noticing (it now checks both run). On two
 * nodes it found that a node read its state from a version older than the epoch the cluster reset
 * to (a HashAgg then lost rows), and that a node joining after a reset stalled barriers for a
 * collect timeout.
 */
@Tag("long") // about 2 minutes: mvn -B verify -Plong; ChaosIT kills the meta leader and compute
// nodes under a background backfill on such a cluster in the default run
class LocalClusterIT {
  /** The meta processes' election session: a crashed leader is replaced within about this long. */
  private static final int SESSION_MS = 5_000;

  @TempDir Path dir;

  private final Map<String, Process> processes = new TreeMap<>();
  private final HttpClient http = HttpClient.newHttpClient();

  private Process start(String name, String... args) throws IOException {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    assertThat(jar).as("the cli module's shaded jar").exists();
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx384m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(List.of(args));
    Path log = dir.resolve(name + ".log");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.put(name, p);
    return p;
  }

  @AfterEach
  void stopAll() throws IOException {
    for (Map.Entry<String, Process> e : processes.entrySet()) {
      e.getValue().destroyForcibly();
    }
    for (Map.Entry<String, Process> e : processes.entrySet()) {
      try {
        e.getValue().waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
      Path log = dir.resolve(e.getKey() + ".log");
      if (Files.exists(log)) {
        List<String> lines = Files.readAllLines(log);
        System.out.println("---- " + e.getKey() + " (last lines) ----");
        lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.out::println);
      }
    }
  }

  private void startCompute(int id, String zkAddr, String store, int port) throws IOException {
    start(
        "compute-" + id,
        "compute",
        "--zookeeper",
        zkAddr,
        "--store",
        store,
        "--node-id",
        "" + id,
        "--parallelism",
        "1",
        "--port",
        "" + port,
        "--http-port",
        "" + PlaygroundIT.freePort());
  }

  private String get(int port, String path) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() + " " + r.body();
    } catch (Exception e) {
      return "down";
    }
  }

  private static Connection connectWithin(int port, long ms) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (true) {
      try {
        return DriverManager.getConnection(
            "jdbc:postgresql://127.0.0.1:" + port + "/dev?user=root");
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(500);
      }
    }
  }

  /** Runs {@code sql}, retrying while the cluster is still starting (no compute node yet). */
  private static void executeWithin(Statement st, String sql, long ms) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (true) {
      try {
        st.execute(sql);
        return;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(1000);
      }
    }
  }

  private static List<String> rows(Statement st, String sql) throws SQLException {
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
  void standbyMetaTakesOverMidBackfillAndTheViewEndsExact() throws Exception {
    int zk = PlaygroundIT.freePort();
    String store = dir.resolve("store").toUri().toString();
    Files.createDirectories(dir.resolve("store"));
    start("zookeeper", "zookeeper", "--port", "" + zk, "--data-dir", dir.resolve("zk").toString());
    String zkAddr = "127.0.0.1:" + zk;
    int[] metaHttp = {PlaygroundIT.freePort(), PlaygroundIT.freePort()};
    for (int i = 0; i < 2; i++) {
      start(
          "meta-" + (i + 1),
          "meta",
          "--zookeeper",
          zkAddr,
          "--store",
          store,
          "--participant-id",
          "m" + (i + 1),
          "--port",
          "" + PlaygroundIT.freePort(),
          "--http-port",
          "" + metaHttp[i],
          "--barrier-interval-ms",
          "250",
          "--zk-session-timeout-ms",
          "" + SESSION_MS);
    }
    int[] computePort = {PlaygroundIT.freePort(), PlaygroundIT.freePort()};
    for (int i = 1; i <= 2; i++) {
      startCompute(i, zkAddr, store, computePort[i - 1]);
    }
    int pg = PlaygroundIT.freePort();
    start(
        "frontend",
        "frontend",
        "--zookeeper",
        zkAddr,
        "--store",
        store,
        "--port",
        "" + PlaygroundIT.freePort(),
        "--pg-port",
        "" + pg);

    String agg = "SELECT v % 10 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY v % 10";
    try (Connection c = connectWithin(pg, 180_000);
        Statement st = c.createStatement()) {
      executeWithin(st, "CREATE TABLE t (k INT PRIMARY KEY, v INT)", 120_000);
      long registeredBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (computeNodesRegistered(metaHttp) < 2 && System.nanoTime() < registeredBy) {
        TimeUnit.MILLISECONDS.sleep(200);
      }
      assertThat(computeNodesRegistered(metaHttp)).as("compute nodes registered").isEqualTo(2);
      for (int i = 1; i <= 2; i++) {
        assertThat(processes.get("compute-" + i).isAlive()).as("compute-%s runs", i).isTrue();
      }
      st.execute("INSERT INTO t SELECT x, x * 7 FROM generate_series(1, 20000) AS x");
      st.execute("FLUSH");
      assertThat(rows(st, "SELECT count(*) FROM t")).containsExactly("20000");
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 1000");
      st.execute("CREATE MATERIALIZED VIEW mv AS " + agg);

      double last = -1;
      boolean killed = false;
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (System.nanoTime() < deadline) {
        List<String> p = rows(st, "SELECT progress FROM rw_catalog.rw_ddl_progress");
        if (p.isEmpty()) {
          break; // the job is created
        }
        double ratio = ratio(p.get(0));
        assertThat(ratio).as("progress never goes backwards (%s)", p).isGreaterThanOrEqualTo(last);
        last = ratio;
        if (!killed && ratio > 0.2) {
          int leaderIdx = get(metaHttp[0], "/health/ready").contains("leader") ? 0 : 1;
          processes.get("meta-" + (leaderIdx + 1)).destroyForcibly();
          killed = true;
          long killedAt = System.nanoTime();
          while (!get(metaHttp[1 - leaderIdx], "/health/ready").contains("leader")) {
            assertThat(System.nanoTime() - killedAt)
                .as("the standby leads within the session timeout + 10 s of the leader's death")
                .isLessThan(TimeUnit.MILLISECONDS.toNanos(SESSION_MS + 10_000));
            TimeUnit.MILLISECONDS.sleep(100);
          }
          System.out.printf(
              "standby led %d ms after the leader's death (session %d ms)%n",
              (System.nanoTime() - killedAt) / 1_000_000, SESSION_MS);
        }
        TimeUnit.MILLISECONDS.sleep(300);
      }
      assertThat(killed).as("the leader was killed mid-backfill").isTrue();
      assertThat(rows(st, "SELECT progress FROM rw_catalog.rw_ddl_progress")).isEmpty();
      st.execute("FLUSH");
      assertThat(rows(st, "SELECT * FROM mv")).isEqualTo(rows(st, agg));

      // compute nodes killed mid-backfill, three times, each restarted on its address: the job
      // resumes from its persisted positions (consumed rows never fall back), its progress never
      // goes backwards, and both views end exact
      String agg2 = "SELECT v % 3 AS g, max(k) AS m, count(*) AS n FROM t GROUP BY v % 3";
      st.execute("SET backfill_rate_limit = 400");
      st.execute("CREATE MATERIALIZED VIEW mv2 AS " + agg2);
      double[] killAt = {0.1, 0.4, 0.7};
      int kills = 0;
      double lastRatio = -1;
      long lastConsumed = -1;
      long started = System.nanoTime();
      long until = started + TimeUnit.MINUTES.toNanos(5);
      while (System.nanoTime() < until) {
        List<String> p;
        try {
          p = rows(st, "SELECT ratio, consumed_rows FROM rw_catalog.rw_ddl_progress");
        } catch (SQLException e) {
          TimeUnit.MILLISECONDS.sleep(500); // the frontend may be waiting out a recovery
          continue;
        }
        if (p.isEmpty()) {
          break;
        }
        String[] f = p.get(0).split("\\|");
        double ratio = "null".equals(f[0]) ? 0 : Double.parseDouble(f[0]);
        long consumed = "null".equals(f[1]) ? 0 : Long.parseLong(f[1]);
        assertThat(ratio)
            .as("mv2 progress never goes backwards (%s)", p)
            .isGreaterThanOrEqualTo(lastRatio);
        assertThat(consumed)
            .as("mv2 never restarts from zero (%s)", p)
            .isGreaterThanOrEqualTo(lastConsumed);
        lastRatio = ratio;
        lastConsumed = consumed;
        System.out.printf(
            "mv2 progress at %d ms: %s%n", (System.nanoTime() - started) / 1_000_000, p);
        if (kills < killAt.length && ratio > killAt[kills]) {
          int node = kills % 2 == 0 ? 2 : 1;
          processes.get("compute-" + node).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
          startCompute(node, zkAddr, store, computePort[node - 1]);
          kills++;
          System.out.printf(
              "killed compute-%d at %d ms%n", node, (System.nanoTime() - started) / 1_000_000);
        }
        TimeUnit.MILLISECONDS.sleep(500);
      }
      assertThat(kills).as("compute nodes were killed three times mid-backfill").isEqualTo(3);
      assertThat(rows(st, "SELECT progress FROM rw_catalog.rw_ddl_progress")).isEmpty();
      executeWithin(st, "INSERT INTO t VALUES (30001, 5), (30002, 6)", 120_000);
      executeWithin(st, "FLUSH", 120_000);
      assertThat(rows(st, "SELECT * FROM mv")).isEqualTo(rows(st, agg));
      assertThat(rows(st, "SELECT * FROM mv2")).isEqualTo(rows(st, agg2));
    }
  }

  /** Compute nodes in the cluster as either meta's {@code /api/cluster} lists them. */
  private int computeNodesRegistered(int[] metaHttp) {
    int most = 0;
    for (int port : metaHttp) {
      most = Math.max(most, get(port, "/api/cluster").split("\"compute\"", -1).length - 1);
    }
    return most;
  }

  /** "56.12% (561200/1000000)" → 0.5612; anything unparsable is 0. */
  private static double ratio(String progress) {
    int pct = progress.indexOf('%');
    if (pct < 0) {
      return 0;
    }
    try {
      return Double.parseDouble(progress.substring(0, pct).trim()) / 100;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
