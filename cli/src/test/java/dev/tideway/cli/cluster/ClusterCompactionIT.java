package dev.tideway.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.meta.compute.PekkoComputeClient;
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
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction over the wire, end to end: an embedded ZooKeeper, a meta process (version owner), a
 * compute node and a frontend, each a real Pekko member on loopback with its own store instance on
 * one directory. Enough checkpoints pile up in L0 that the meta leader's {@code VersionMaintenance}
 * picks a compaction, sends it to the compute node as a {@code Compact} command through {@link
 * PekkoComputeClient}, and commits the node's result into the version; the data reads the same
 * before and after, and afterwards a dropped table leaves the version.
 */
class ClusterCompactionIT {
  @TempDir Path dir;

  private static final java.util.concurrent.atomic.AtomicInteger NEXT_PORT =
      new java.util.concurrent.atomic.AtomicInteger(
          21_000 + (int) (ProcessHandle.current().pid() % 500) * 20);

  /**
   * A free port below Linux's ephemeral range: an ephemeral one from {@code new ServerSocket(0)}
   * can be taken by an outgoing connection (a ZooKeeper client) between the probe and the bind.
   */
  static int freePort() throws IOException {
    for (int i = 0; i < 11_000; i++) {
      int port = 21_000 + Math.floorMod(NEXT_PORT.getAndIncrement() - 21_000, 11_000);
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(false);
        s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException inUse) {
        // taken: try the next one
      }
    }
    throw new IOException("no free port in [21000, 32000)");
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

  static void await(String what, long timeoutMs, BooleanSupplier cond) throws Exception {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  /** Some SST sits below L0: a compaction result was applied to the version. */
  static boolean compacted(String version) {
    String levels = version.substring(version.indexOf("ssts={") + 6, version.lastIndexOf('}') - 1);
    for (String l : levels.split(", ")) {
      if (!l.startsWith("0=") && !l.endsWith("=0")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void metaSchedulesCompactionOnTheComputeNodeAndCommitsItsResult() throws Exception {
    Clock clock = Clock.system();
    String host = "127.0.0.1";
    // any free port for the compute node's /metrics (its default may be taken on this machine)
    System.setProperty("tideway.compute.http-port", "0");
    com.typesafe.config.ConfigFactory.invalidateCaches();
    String store = dir.resolve("store").toUri().toString();
    int computePort = freePort();
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), host, freePort())) {
      String zks = zk.connectString(host);
      try (ComputeProcess compute =
              ComputeProcess.start(
                  new ComputeProcess.Options(
                      zks,
                      "it",
                      7, // not meta's id for it (1): its node reports must be restamped
                      host,
                      computePort,
                      store,
                      2,
                      ComputeProcess.DEFAULT_HTTP_PORT,
                      null),
                  clock);
          MetaProcess meta =
              MetaProcess.start(
                  new MetaProcess.Options(
                      zks,
                      "it",
                      "meta-1",
                      host,
                      freePort(),
                      0,
                      store,
                      100,
                      MetaProcess.Options.DEFAULT_ZK_SESSION_TIMEOUT_MS,
                      null),
                  clock);
          FrontendProcess frontend =
              FrontendProcess.start(
                  new FrontendProcess.Options(zks, "it", host, freePort(), freePort(), store, 100),
                  clock);
          Connection c =
              DriverManager.getConnection(
                  "jdbc:postgresql://" + host + ":" + frontend.pgPort() + "/dev?user=root");
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
        st.execute("CREATE TABLE gone (k INT PRIMARY KEY, v INT)");
        for (int batch = 0; batch < 8; batch++) {
          int from = batch * 100 + 1;
          st.execute(
              "INSERT INTO t SELECT x, x * 3 FROM generate_series("
                  + from
                  + ", "
                  + (from + 99)
                  + ") AS x");
          st.execute("FLUSH"); // the UPDATE reads committed rows: make the insert visible first
          st.execute("UPDATE t SET v = v + 1 WHERE k % 10 = " + batch);
          st.execute("INSERT INTO gone VALUES (" + batch + ", " + batch + ")");
          st.execute("FLUSH");
          assertThat(rows(st, "SELECT sum(v) FROM t"))
              .as("after batch %s, version %s", batch, meta.storage().describeVersion())
              .containsExactly(Long.toString(expectedSum(batch)));
        }
        String q = "SELECT count(*), sum(v), min(k), max(k) FROM t";
        List<String> before = rows(st, q);
        assertThat(before).containsExactly("800|" + expectedSum(7) + "|1|800");
        await(
            "a compaction run on the compute node is committed",
            60_000,
            () -> compacted(meta.storage().describeVersion()));
        System.out.println("after compaction: " + meta.storage().describeVersion());
        // the node reports the task with its checkpoints: meta's cluster page shows it by address
        await(
            "the compute node's report of the compaction reaches meta",
            30_000,
            () ->
                meta.meta().nodeStatuses().values().stream()
                    .anyMatch(s -> s.compactionsFinished() > 0));
        assertThat(meta.meta().nodeStatuses()).hasSize(1);
        var status = meta.meta().nodeStatuses().values().iterator().next();
        assertThat(status.heapUsedBytes()).isPositive();
        assertThat(status.heapMaxBytes()).isGreaterThanOrEqualTo(status.heapUsedBytes());
        assertThat(status.compactionReadBytes()).isPositive();
        assertThat(status.compactionWrittenBytes()).isPositive();
        assertThat(status.lastCompactionAtMs()).isPositive();
        st.execute("INSERT INTO t VALUES (1000, 1)");
        st.execute("DELETE FROM t WHERE k = 1000");
        st.execute("FLUSH");
        assertThat(rows(st, q)).as("the same rows after compaction").isEqualTo(before);

        int goneId = tableId(meta, "gone");
        assertThat(meta.storage().tableStats()).containsKey(goneId);
        st.execute("DROP TABLE gone");
        st.execute("FLUSH");
        await(
            "the dropped table's data leaves the version",
            30_000,
            () -> !meta.storage().tableStats().containsKey(goneId));
        assertThat(meta.storage().droppedTables()).contains(goneId);
        assertThat(rows(st, q)).isEqualTo(before);
      }
    }
  }

  static int tableId(MetaProcess meta, String name) {
    return meta.meta().catalog().orElseThrow().objects().values().stream()
        .filter(o -> o.name().equals(name))
        .findFirst()
        .orElseThrow()
        .id();
  }

  /**
   * Σ v after batches 0..{@code last}: 3k for k inserted so far, plus 1 for each update that
   * touched k (the update of batch b touches rows inserted in batches <= b with k % 10 == b).
   */
  static long expectedSum(int last) {
    long sum = 0;
    for (int k = 1; k <= (last + 1) * 100; k++) {
      int batchOfK = (k - 1) / 100;
      long v = 3L * k;
      for (int b = batchOfK; b <= last; b++) {
        if (k % 10 == b) {
          v++;
        }
      }
      sum += v;
    }
    return sum;
  }
}
