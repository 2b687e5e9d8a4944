package dev.tideway.cli.chaos;

import dev.tideway.cli.local.LocalCluster;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tideway's fault-injection suite: starts a {@link LocalCluster} of separate processes, runs a
 * workload through the PostgreSQL protocol and injects faults one at a time, judging the result
 * after every fault and at the end.
 *
 * <ul>
 *   <li>Workload: table {@code kv(k, v, g)} written by four sessions ({@link Writer}: INSERT,
 *       UPDATE, DELETE, FLUSH; a write is ledgered only after its statement returned OK and a later
 *       FLUSH succeeded), table {@code dim(g, name)}, views {@code mv_agg} (an aggregate), {@code
 *       mv_join} (kv joined with dim) and {@code mv_top} (a view on {@code mv_agg}), and {@code
 *       mv_bg}, created in the background mid-run with a backfill rate limit so that faults hit its
 *       backfill.
 *   <li>Faults: {@code kill -9} of a compute node, of the meta leader, of the frontend or of
 *       ZooKeeper (each restarted after a few seconds), {@code SIGSTOP} of a compute node for a
 *       while then {@code SIGCONT}, the object store failing every write for a few seconds. A
 *       process that exits on its own (the cluster downed it) is started again, as a supervisor
 *       would.
 *   <li>Judgement, with the writers parked and flushed: {@code kv} holds exactly the ledger (a
 *       ledgered write missing or changed is lost; a row the ledger does not have is a phantom),
 *       and every view equals a batch recomputation of its query over the tables; the background
 *       job's progress never went backwards and it finished.
 * </ul>
 */
public final class Chaos {
  /** How a run goes. */
  public record Options(
      Path dir,
      Path jar,
      Duration duration,
      int minFaults,
      long seed,
      int maxPauseSeconds,
      Duration settle) {}

  /** What a run found. */
  public record Report(
      int faultsInjected,
      Map<String, Integer> faultsByKind,
      Map<String, Double> medianRecoveryByKind,
      long writesLedgered,
      long writesLost,
      long phantomRows,
      int mvMismatches,
      long recoveries,
      double medianRecoverySeconds,
      double maxRecoverySeconds,
      long progressBackwards,
      boolean backgroundJobFinished,
      long readsOk,
      long readsFailed,
      long statements,
      int restartsAfterDowned,
      List<String> problems) {
    /** Whether the run found nothing wrong. */
    public boolean clean() {
      return writesLost == 0
          && phantomRows == 0
          && mvMismatches == 0
          && progressBackwards == 0
          && backgroundJobFinished
          && problems.isEmpty();
    }

    public void print(PrintStream out) {
      out.println("faults_injected=" + faultsInjected);
      faultsByKind.forEach((k, n) -> out.println("faults_" + k + "=" + n));
      medianRecoveryByKind.forEach((k, m) -> out.printf("median_recovery_s_%s=%.1f%n", k, m));
      out.println("writes_ledgered=" + writesLedgered);
      out.println("writes_lost=" + writesLost);
      out.println("phantom_rows=" + phantomRows);
      out.println("mv_mismatches=" + mvMismatches);
      out.println("recoveries=" + recoveries);
      out.printf("median_recovery_s=%.1f%n", medianRecoverySeconds);
      out.printf("max_recovery_s=%.1f%n", maxRecoverySeconds);
      out.println("progress_backwards=" + progressBackwards);
      out.println("background_job_finished=" + backgroundJobFinished);
      out.println("reads_ok=" + readsOk);
      out.println("reads_failed=" + readsFailed);
      out.println("statements=" + statements);
      out.println("restarts_after_downed=" + restartsAfterDowned);
      problems.forEach(p -> out.println("problem=" + p));
      out.println("clean=" + clean());
    }
  }

  static final String[] VIEWS = {"mv_agg", "mv_join", "mv_top", "mv_bg"};

  /** Each view's query, recomputed over the tables by the judge. */
  static final Map<String, String> QUERIES =
      Map.of(
          "mv_agg", "SELECT g, count(*) AS n, sum(v) AS s FROM kv GROUP BY g",
          "mv_join", "SELECT kv.k, kv.v, dim.name FROM kv JOIN dim ON kv.g = dim.g",
          "mv_top",
              "SELECT count(*) AS groups, sum(n) AS total FROM"
                  + " (SELECT g, count(*) AS n FROM kv GROUP BY g) AS a",
          "mv_bg", "SELECT g, max(v) AS m, count(*) AS n FROM kv GROUP BY g");

  private static final int SESSIONS = 4;
  private static final int KEYS = 8_000;

  private final Options o;
  private final Clock clock;
  private final PrintStream log;
  private final RandomSource random;
  private final Ledger ledger = new Ledger();
  private final List<Writer> writers = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Map<String, Integer> faults = new TreeMap<>();
  private final List<Double> recoverySeconds = new ArrayList<>();
  private final Map<String, List<Double>> recoveryByKind = new TreeMap<>();
  private final AtomicLong readsOk = new AtomicLong();
  private final AtomicLong readsFailed = new AtomicLong();
  private final AtomicLong progressBackwards = new AtomicLong();
  private volatile boolean backgroundCreated;
  private volatile boolean backgroundFinished;
  private volatile boolean stopping;
  private int downedRestarts;
  private final java.util.Set<Integer> lostKeys = new java.util.HashSet<>();
  private final java.util.Set<Integer> phantomKeys = new java.util.HashSet<>();
  private int mismatches;
  private LocalCluster cluster;

  public Chaos(Options o, Clock clock, PrintStream log) {
    this.o = o;
    this.clock = clock;
    this.log = log;
    this.random = RandomSource.seeded(o.seed());
  }

  public Report run() throws Exception {
    long started = clock.nanoTime();
    log.println("chaos: seed " + o.seed() + ", cluster under " + o.dir());
    LocalCluster.Options co =
        LocalCluster.Options.of(o.dir(), o.jar()).withBarrierInterval(250, 10_000);
    ExecutorService threads = Threads.fixedPool("chaos", SESSIONS + 2);
    try (LocalCluster c = LocalCluster.start(co, clock, Duration.ofMinutes(3))) {
      cluster = c;
      setUp();
      for (int s = 0; s < SESSIONS; s++) {
        Writer w = new Writer(s, SESSIONS, KEYS, c.jdbcUrl(), ledger, random.split(), clock);
        writers.add(w);
        threads.submit(w);
      }
      threads.submit(this::readAndWatchProgress);
      long deadline = started + o.duration().toNanos();
      int n = 0;
      while (n < o.minFaults() || clock.nanoTime() < deadline) {
        clock.sleepMillis(2_000 + random.nextInt(2_000)); // the workload runs
        if (n == 1) {
          createBackgroundView();
        }
        String kind = inject(n);
        faults.merge(kind, 1, Integer::sum);
        n++;
        judge("after fault " + n + " (" + kind + ")");
      }
      awaitBackgroundJob();
      judge("at the end");
      stopping = true;
      writers.forEach(Writer::stop);
      threads.shutdown();
      threads.awaitTermination(30, TimeUnit.SECONDS);
      return report(n, c);
    } finally {
      stopping = true;
      writers.forEach(Writer::stop);
      threads.shutdownNow();
    }
  }

  private void setUp() throws Exception {
    try (Connection conn = cluster.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE kv (k INT PRIMARY KEY, v BIGINT, g INT)");
      st.execute("CREATE TABLE dim (g INT PRIMARY KEY, name VARCHAR)");
      st.execute(
          "INSERT INTO dim SELECT x, 'group-' || CAST(x AS VARCHAR) FROM generate_series(0, "
              + (Writer.GROUPS - 1)
              + ") AS x");
      st.execute("FLUSH");
      for (String v : List.of("mv_agg", "mv_join")) {
        st.execute("CREATE MATERIALIZED VIEW " + v + " AS " + QUERIES.get(v));
      }
      st.execute(
          "CREATE MATERIALIZED VIEW mv_top AS SELECT count(*) AS groups, sum(n) AS total FROM mv_agg");
    }
  }

  private void createBackgroundView() {
    try (Connection conn = cluster.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 300");
      st.execute("CREATE MATERIALIZED VIEW mv_bg AS " + QUERIES.get("mv_bg"));
      backgroundCreated = true;
      log.println("chaos: mv_bg created in the background");
    } catch (Exception e) {
      problems.add("could not create mv_bg: " + e.getMessage());
    }
  }

  /** Injects fault number {@code n}, ends it, and waits until the cluster serves writes again. */
  private String inject(int n) throws Exception {
    String[] kinds = {
      "kill_compute",
      "pause_compute",
      "kill_meta_leader",
      "store_write_failure",
      "kill_frontend",
      "kill_zookeeper"
    };
    String kind = kinds[n % kinds.length];
    String compute = LocalCluster.COMPUTES.get(random.nextInt(2));
    for (String name : cluster.names()) {
      if (cluster.ensureRunning(name)) { // exited since the last fault (a member downed)
        log.println("chaos: " + name + " exited; starting it again");
        downedRestarts++;
      }
    }
    long at = clock.nanoTime();
    log.printf("chaos: fault %d: %s%n", n + 1, kind);
    switch (kind) {
      case "kill_compute" -> {
        cluster.kill(compute);
        clock.sleepMillis(random.nextInt(5_000));
        cluster.start(compute);
      }
      case "pause_compute" -> {
        cluster.pause(compute);
        clock.sleepMillis(5_000 + random.nextInt(Math.max(1, o.maxPauseSeconds() - 5) * 1_000));
        cluster.resume(compute);
      }
      case "kill_meta_leader" -> {
        String leader = cluster.leader();
        if (leader == null) {
          leader = LocalCluster.METAS.get(0);
        }
        cluster.kill(leader);
        clock.sleepMillis(random.nextInt(5_000));
        cluster.start(leader);
      }
      case "store_write_failure" -> {
        cluster.injectFault("objectstore.write");
        clock.sleepMillis(2_000 + random.nextInt(3_000));
        cluster.clearFaults();
      }
      case "kill_frontend" -> {
        cluster.kill(LocalCluster.FRONTEND);
        clock.sleepMillis(random.nextInt(3_000));
        cluster.start(LocalCluster.FRONTEND);
      }
      case "kill_zookeeper" -> {
        cluster.kill(LocalCluster.ZOOKEEPER);
        clock.sleepMillis(random.nextInt(5_000));
        cluster.start(LocalCluster.ZOOKEEPER);
      }
      default -> throw new IllegalStateException(kind);
    }
    double s = awaitServing(at);
    recoverySeconds.add(s);
    recoveryByKind.computeIfAbsent(kind, x -> new ArrayList<>()).add(s);
    log.printf(
        "chaos: fault %d (%s): serving writes again %.1f s after it began%n", n + 1, kind, s);
    return kind;
  }

  /**
   * Restarts any process that exited (a member the cluster downed exits, and a supervisor starts it
   * again), then waits until a write and a FLUSH succeed; the seconds since {@code since}.
   */
  private double awaitServing(long since) throws Exception {
    long deadline = clock.nanoTime() + o.settle().toNanos();
    while (true) {
      for (String name : cluster.names()) {
        if (cluster.ensureRunning(name)) {
          log.println("chaos: " + name + " exited; starting it again");
          downedRestarts++;
        }
      }
      try (Connection conn = cluster.connect(Duration.ofSeconds(5));
          Statement st = conn.createStatement()) {
        st.execute("FLUSH");
        return (clock.nanoTime() - since) / 1e9;
      } catch (Exception e) {
        if (clock.nanoTime() > deadline) {
          problems.add(
              "the cluster did not serve writes within " + o.settle() + ": " + e.getMessage());
          throw new IllegalStateException("cluster did not recover; see the logs in " + o.dir(), e);
        }
        clock.sleepMillis(500);
      }
    }
  }

  /** Parks the writers, compares the tables with the ledger and the views with their queries. */
  private void judge(String when) throws Exception {
    writers.forEach(Writer::park);
    long deadline = clock.nanoTime() + o.settle().toNanos();
    while (!writers.stream().allMatch(Writer::isParked)) {
      if (clock.nanoTime() > deadline) {
        problems.add(when + ": writers did not settle within " + o.settle());
        writers.forEach(Writer::resume);
        return;
      }
      clock.sleepMillis(50);
    }
    try (Connection conn = cluster.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      st.execute("FLUSH");
      Map<Integer, Long> expected = ledger.snapshot();
      Map<Integer, Long> actual = new HashMap<>();
      try (ResultSet rs = st.executeQuery("SELECT k, v FROM kv")) {
        while (rs.next()) {
          actual.put(rs.getInt(1), rs.getLong(2));
        }
      }
      int reported = 0;
      for (Map.Entry<Integer, Long> e : expected.entrySet()) {
        if (!e.getValue().equals(actual.get(e.getKey()))
            && lostKeys.add(e.getKey())
            && reported++ < 5) {
          problems.add(
              when
                  + ": key "
                  + e.getKey()
                  + " ledgered "
                  + e.getValue()
                  + ", table has "
                  + actual.get(e.getKey())
                  + "; its history "
                  + writers.get(e.getKey() % SESSIONS).history.get(e.getKey()));
        }
      }
      List<Integer> extra =
          actual.keySet().stream().filter(k -> !expected.containsKey(k)).sorted().toList();
      if (!extra.isEmpty() && phantomKeys.addAll(extra)) {
        problems.add(
            when
                + ": rows in kv that no ledgered write put there, keys "
                + extra.subList(0, Math.min(5, extra.size()))
                + "; history of the first "
                + writers.get(extra.get(0) % SESSIONS).history.get(extra.get(0)));
      }
      for (Writer w : writers) {
        String a;
        while ((a = w.anomalies.poll()) != null) {
          problems.add(when + ": " + a);
        }
      }
      for (String v : VIEWS) {
        if (v.equals("mv_bg") && !backgroundFinished) {
          continue;
        }
        List<String> view = rows(st, "SELECT * FROM " + v);
        List<String> batch = rows(st, QUERIES.get(v));
        if (!view.equals(batch)) {
          mismatches++;
          problems.add(when + ": " + v + " differs from its query: " + diff(view, batch));
        }
      }
      log.printf(
          "chaos: judged %s: %d keys ledgered, %d lost, %d phantom, %d view mismatches so far%n",
          when, expected.size(), lostKeys.size(), phantomKeys.size(), mismatches);
    } finally {
      writers.forEach(Writer::resume);
    }
  }

  private static String diff(List<String> view, List<String> batch) {
    List<String> missing = new ArrayList<>(batch);
    missing.removeAll(view);
    List<String> extra = new ArrayList<>(view);
    extra.removeAll(batch);
    return "missing "
        + missing.subList(0, Math.min(3, missing.size()))
        + " ("
        + missing.size()
        + "), extra "
        + extra.subList(0, Math.min(3, extra.size()))
        + " ("
        + extra.size()
        + ")";
  }

  static List<String> rows(Statement st, String sql) throws SQLException {
    return dev.tideway.cli.local.Probes.sortedRows(st, sql, String::valueOf);
  }

  /** A reader of the views, and the watcher of the background job's progress. */
  private void readAndWatchProgress() {
    double lastRatio = -1;
    long lastConsumed = -1;
    Connection conn = null;
    while (!stopping) {
      try {
        if (conn == null) {
          conn = java.sql.DriverManager.getConnection(cluster.jdbcUrl());
        }
        try (Statement st = conn.createStatement()) {
          rows(st, "SELECT * FROM mv_top");
          readsOk.incrementAndGet();
          if (backgroundCreated && !backgroundFinished) {
            List<String> p =
                rows(st, "SELECT ratio, consumed_rows FROM rw_catalog.rw_ddl_progress");
            if (p.isEmpty()) {
              backgroundFinished =
                  !rows(st, "SHOW MATERIALIZED VIEWS").stream()
                      .filter(r -> r.startsWith("mv_bg"))
                      .toList()
                      .isEmpty();
            } else {
              String[] f = p.get(0).split("\\|");
              double ratio = "null".equals(f[0]) ? 0 : Double.parseDouble(f[0]);
              long consumed = "null".equals(f[1]) ? 0 : Long.parseLong(f[1]);
              if (ratio < lastRatio || consumed < lastConsumed) {
                progressBackwards.incrementAndGet();
                log.printf(
                    "chaos: mv_bg progress went backwards: %s after %.4f/%d%n",
                    p, lastRatio, lastConsumed);
              }
              lastRatio = Math.max(lastRatio, ratio);
              lastConsumed = Math.max(lastConsumed, consumed);
            }
          }
        }
      } catch (SQLException | RuntimeException e) {
        readsFailed.incrementAndGet();
        try {
          if (conn != null) {
            conn.close();
          }
        } catch (SQLException ignored) {
          // reconnecting anyway
        }
        conn = null;
      }
      try {
        clock.sleepMillis(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void awaitBackgroundJob() throws InterruptedException {
    long deadline = clock.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (backgroundCreated && !backgroundFinished && clock.nanoTime() < deadline) {
      clock.sleepMillis(500);
    }
    if (!backgroundFinished) {
      problems.add("mv_bg did not finish its backfill");
    }
  }

  private Map<String, Double> medians() {
    Map<String, Double> out = new TreeMap<>();
    recoveryByKind.forEach(
        (k, l) -> {
          List<Double> sorted = new ArrayList<>(l);
          sorted.sort(null);
          out.put(k, sorted.get(sorted.size() / 2));
        });
    return out;
  }

  private Report report(int n, LocalCluster c) throws IOException {
    long recoveries = 0;
    for (String m : LocalCluster.METAS) {
      if (Files.exists(c.log(m))) {
        recoveries +=
            Files.readAllLines(c.log(m)).stream().filter(l -> l.contains("recovery #")).count();
      }
    }
    List<Double> sorted = new ArrayList<>(recoverySeconds);
    sorted.sort(null);
    double median = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    double max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1);
    long statements = writers.stream().mapToLong(w -> w.statements.get()).sum();
    return new Report(
        n,
        Map.copyOf(faults),
        medians(),
        ledger.writes(),
        lostKeys.size(),
        phantomKeys.size(),
        mismatches,
        recoveries,
        median,
        max,
        progressBackwards.get(),
        backgroundFinished,
        readsOk.get(),
        readsFailed.get(),
        statements,
        downedRestarts + cluster.supervisorRestarts(),
        List.copyOf(problems));
  }
}
