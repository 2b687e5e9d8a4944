package dev.tideway.cli.bench;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.cli.local.LocalCluster;
import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * {@code tideway bench ingest}: bulk loading through SQL, as users load. Prints the rows per second
 * of {@code INSERT ... SELECT ... generate_series} and of pgJDBC batch inserts on a playground
 * (rewritten into multi-row INSERTs, pgJDBC's bulk setting; and as sent by default, one INSERT per
 * row), of the same INSERT on a local cluster of separate processes with two compute nodes, and of
 * the same rows written straight into a {@link StateTable} with a checkpoint every 100k rows (the
 * raw state path: no SQL, no DML routing, no actors), in the same run; {@code efficiency} is the
 * playground's INSERT rate over the raw one. Every SQL figure includes the FLUSH that commits the
 * rows, after a warm-up load of the same shape.
 */
public final class IngestBenchmark implements Benchmark {
  private static final int RAW_EPOCH_ROWS = 100_000;
  private final Clock clock = Clock.system();

  @Override
  public String name() {
    return "ingest";
  }

  @Override
  public String description() {
    return "bulk INSERT and pgJDBC batches on a playground and a 2-node cluster vs raw StateTable writes";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "cluster-rows", "batch", "jar");
    long rows = options.getLong("rows", 1_000_000);
    long clusterRows = options.getLong("cluster-rows", 1_000_000, 0);
    int batch = (int) options.getLong("batch", 5_000);
    try {
      Path dir = Files.createTempDirectory("tideway-bench-ingest");
      raw(dir.resolve("raw-warm-up"), Math.min(rows, 300_000));
      double raw = raw(dir.resolve("raw"), rows);
      out.printf("raw_rows_per_s=%d%n", Math.round(raw));
      out.flush();
      double[] pg = playground(dir.resolve("playground"), rows, batch);
      out.printf("playground_insert_select_rows_per_s=%d%n", Math.round(pg[0]));
      out.printf("playground_jdbc_batch_rows_per_s=%d%n", Math.round(pg[1]));
      out.printf("playground_jdbc_plain_batch_rows_per_s=%d%n", Math.round(pg[2]));
      out.flush();
      double cluster = 0;
      if (clusterRows > 0) {
        Path jar =
            options.values().containsKey("jar") ? Path.of(options.values().get("jar")) : ownJar();
        if (jar == null) {
          throw new IllegalArgumentException("the cluster run needs the Tideway jar: pass --jar");
        }
        cluster = cluster(dir.resolve("cluster"), jar, clusterRows);
        out.printf("cluster_insert_select_rows_per_s=%d%n", Math.round(cluster));
      }
      out.printf("rows_per_s=%d%n", Math.round(pg[0]));
      out.printf(
          "summary: playground %d rows/s (INSERT ... SELECT), %d rows/s (pgJDBC rewritten batches),"
              + " %d rows/s (pgJDBC plain batches), cluster %d rows/s, raw StateTable %d rows/s,"
              + " efficiency=%.2f%n",
          Math.round(pg[0]),
          Math.round(pg[1]),
          Math.round(pg[2]),
          Math.round(cluster),
          Math.round(raw),
          pg[0] / raw);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("ingest benchmark failed: " + e, e);
    }
  }

  /** Rows per second written into a StateTable of the same layout, a checkpoint per 100k rows. */
  private double raw(Path dir, long rows) throws Exception {
    TableDesc desc =
        new TableDesc(
            1001,
            "raw",
            List.of(
                new ColumnDesc(0, "id", DataType.BIGINT),
                new ColumnDesc(1, "k", DataType.INT),
                new ColumnDesc(2, "v", DataType.BIGINT)),
            List.of(ColumnOrder.asc(0)),
            List.of(0),
            false,
            false);
    Files.createDirectories(dir);
    try (Storage engine = StateStores.open(dir.toUri().toString(), StorageOptions.defaults())) {
      StateTable t = StateTables.open(engine, desc);
      long n = 1;
      long epoch = Epochs.of(n);
      t.init(epoch);
      long t0 = clock.nanoTime();
      for (long g = 1; g <= rows; g++) {
        t.insert(Row.of(g, (int) (g % 1000), g));
        if (g % RAW_EPOCH_ROWS == 0 || g == rows) {
          long next = Epochs.of(++n);
          t.commit(next);
          SyncResult r = engine.sync(epoch).get();
          engine.commitEpoch(epoch, r.ssts(), r.statsDelta());
          epoch = next;
        }
      }
      return rows / ((clock.nanoTime() - t0) / 1e9);
    }
  }

  /** {INSERT ... SELECT rows/s, pgJDBC batch rows/s} on a playground in this process. */
  private double[] playground(Path dir, long rows, int batch) throws Exception {
    Playground.Options o =
        new Playground.Options(dir, "127.0.0.1", free(), free(), free(), free(), 0, 1000);
    try (Playground p = Playground.start(o, clock);
        Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE warm (id BIGINT PRIMARY KEY, k INT, v BIGINT)");
      insertSelect(st, "warm", Math.min(rows, 300_000));
      st.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, k INT, v BIGINT)");
      double insert = insertSelect(st, "big", rows);
      long n = Math.max(batch, rows / 4);
      // pgJDBC's bulk path: each batch goes as multi-row INSERTs (reWriteBatchedInserts=true)
      String url = "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root";
      double rewritten;
      try (Connection rc = DriverManager.getConnection(url + "&reWriteBatchedInserts=true")) {
        batchInsert(rc, st, "warm_batched", Math.min(n, 100_000), batch);
        rewritten = batchInsert(rc, st, "batched", n, batch);
      }
      // batches as the driver sends them by default: one INSERT per row, a Sync per few hundred
      double plain = batchInsert(c, st, "plain_batched", Math.min(n, 100_000), batch);
      return new double[] {insert, rewritten, plain};
    }
  }

  /** Rows per second of {@code n} rows sent by pgJDBC batches of {@code batch}, with the FLUSH. */
  private double batchInsert(Connection c, Statement st, String table, long n, int batch)
      throws Exception {
    st.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, k INT, v BIGINT)");
    long t0 = clock.nanoTime();
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
      for (long g = 1; g <= n; g++) {
        ps.setLong(1, g);
        ps.setInt(2, (int) (g % 1000));
        ps.setLong(3, g);
        ps.addBatch();
        if (g % batch == 0 || g == n) {
          ps.executeBatch();
        }
      }
    }
    st.execute("FLUSH");
    double rate = n / ((clock.nanoTime() - t0) / 1e9);
    try (var rs = st.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      if (rs.getLong(1) != n) {
        throw new IllegalStateException(table + " holds " + rs.getLong(1) + " rows, not " + n);
      }
    }
    return rate;
  }

  /** INSERT ... SELECT rows/s on a local cluster of separate processes (two compute nodes). */
  private double cluster(Path dir, Path jar, long rows) throws Exception {
    LocalCluster.Options o =
        LocalCluster.Options.of(dir, jar)
            .withHeap("1g")
            .withFullJit()
            .withBarrierInterval(1000, 10_000);
    try (LocalCluster c = LocalCluster.start(o, clock, Duration.ofMinutes(3));
        Connection conn = c.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE warm (id BIGINT PRIMARY KEY, k INT, v BIGINT)");
      insertSelect(st, "warm", Math.min(rows, 300_000));
      st.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, k INT, v BIGINT)");
      return insertSelect(st, "big", rows);
    }
  }

  private double insertSelect(Statement st, String table, long rows) throws Exception {
    long t0 = clock.nanoTime();
    st.execute(
        "INSERT INTO "
            + table
            + " SELECT g, CAST(g % 1000 AS INT), g FROM generate_series(1, "
            + rows
            + ") AS g");
    st.execute("FLUSH");
    double rate = rows / ((clock.nanoTime() - t0) / 1e9);
    try (var rs = st.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      if (rs.getLong(1) != rows) {
        throw new IllegalStateException(table + " holds " + rs.getLong(1) + " rows, not " + rows);
      }
    }
    return rate;
  }

  private static int free() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Path ownJar() {
    try {
      Path p =
          Path.of(
              IngestBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return p.toString().endsWith(".jar") ? p : null;
    } catch (Exception e) {
      return null;
    }
  }
}
