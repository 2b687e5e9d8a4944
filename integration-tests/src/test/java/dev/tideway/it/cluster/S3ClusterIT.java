package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.local.LocalCluster;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.objectstore.S3Fixture;
import dev.tideway.storage.objectstore.S3ObjectStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of separate processes (ZooKeeper, two metas, two compute nodes, a frontend) whose state
 * lives on S3 (s3proxy in the test JVM, reached by every process through the {@code
 * TIDEWAY_STORAGE_S3_*} twins), through a kill of a compute node, of the meta leader (the new one
 * takes over the version log on S3) and a window in which every S3 write fails. A ledger keeps the
 * writes whose FLUSH succeeded and those whose fate the client could not know (a write whose FLUSH
 * reported it discarded is neither): the table must hold every acknowledged row and nothing beyond
 * the unknown ones, and the view must equal its query.
 */
@Tag("long") // about 4 minutes: mvn -B verify -Plong; HelmClusterIT runs a cluster on S3 by default
class S3ClusterIT {
  @TempDir Path dir;

  @Test
  void aClusterOnS3KeepsEveryAcknowledgedWriteThroughKillsAndStoreFailures() throws Exception {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    try (S3Fixture s3 = new S3Fixture(dir.resolve("s3"))) {
      LocalCluster.Options o =
          LocalCluster.Options.of(dir.resolve("cluster"), jar)
              .withHeap("448m")
              .withStore(s3.url("tideway"))
              .withEnv(s3.environment());
      try (LocalCluster c = LocalCluster.start(o, Clock.system(), Duration.ofMinutes(3));
          Connection conn = c.connect(Duration.ofMinutes(1));
          Statement st = conn.createStatement()) {
        st.execute("CREATE TABLE t (k BIGINT PRIMARY KEY, v BIGINT)");
        st.execute("INSERT INTO t SELECT g, g * 3 FROM generate_series(1, 100000) AS g");
        st.execute("FLUSH");
        st.execute(
            "CREATE MATERIALIZED VIEW by_g AS SELECT k % 100 AS g, count(*) AS n, sum(v) AS s"
                + " FROM t GROUP BY k % 100");
        Ledger acknowledged = new Ledger();
        for (long k = 1; k <= 100_000; k++) {
          acknowledged.add(k);
        }
        long next = 100_001;
        check(st, acknowledged);
        // a write that hangs while the cluster recovers is cancelled after 15 s: its fate unknown
        st.setQueryTimeout(15);
        long t0 = System.nanoTime();

        c.kill("compute-1"); // and its pod starts again at once
        c.start("compute-1");
        next = writeUntilAcknowledged(st, next, acknowledged);
        check(st, acknowledged);
        System.out.printf("S3ClusterIT: compute kill recovered after %d s%n", secondsSince(t0));

        t0 = System.nanoTime();
        String leader = c.leader();
        c.kill(leader);
        next = writeUntilAcknowledged(st, next, acknowledged);
        c.start(leader);
        check(st, acknowledged);
        System.out.printf("S3ClusterIT: meta leader kill recovered after %d s%n", secondsSince(t0));

        t0 = System.nanoTime();
        c.injectFault(S3ObjectStore.FP_WRITE); // every S3 write fails for a few seconds
        Thread.sleep(4_000);
        c.clearFaults();
        next = writeUntilAcknowledged(st, next, acknowledged);
        check(st, acknowledged);
        System.out.printf(
            "S3ClusterIT: S3 write failures recovered after %d s%n", secondsSince(t0));

        try (S3ObjectStore store = s3.open("tideway")) {
          assertThat(store.list("sst/")).as("SSTs on S3").isNotEmpty();
          assertThat(store.list("version/")).as("the version log on S3").isNotEmpty();
        }
      }
    }
  }

  private static long secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000_000L;
  }

  /** What the client was told: written, or not known either way. */
  static final class Ledger extends ArrayList<Long> {
    final java.util.Set<Long> unknown = new java.util.HashSet<>();
  }

  /** The table holds every acknowledged key and no key never written; the view equals its query. */
  private static void check(Statement st, Ledger acknowledged) throws SQLException {
    java.util.Set<Long> keys = new java.util.HashSet<>();
    for (String k : PlaygroundIT.rows(st, "SELECT k FROM t")) {
      keys.add(Long.parseLong(k));
    }
    assertThat(keys).as("every acknowledged write").containsAll(acknowledged);
    keys.removeAll(acknowledged);
    assertThat(acknowledged.unknown).as("nothing that was not written").containsAll(keys);
    assertThat(PlaygroundIT.rows(st, "SELECT count(*) FROM t WHERE v <> k * 3"))
        .containsExactly("0");
    assertThat(PlaygroundIT.rows(st, "SELECT * FROM by_g"))
        .isEqualTo(
            PlaygroundIT.rows(
                st, "SELECT k % 100 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY k % 100"));
  }

  /** Writes rounds until one is acknowledged (the cluster has recovered), for up to 3 minutes. */
  private static long writeUntilAcknowledged(Statement st, long from, Ledger acknowledged)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (!writeRound(st, from, acknowledged)) {
      from += 100;
      assertThat(System.nanoTime()).as("a write is acknowledged within 3 min").isLessThan(deadline);
      Thread.sleep(500);
    }
    return from + 100;
  }

  private static boolean writeRound(Statement st, long from, Ledger acknowledged) {
    try {
      st.execute(
          "INSERT INTO t SELECT g, g * 3 FROM generate_series("
              + from
              + ", "
              + (from + 99)
              + ") g");
      st.execute("FLUSH");
    } catch (SQLException e) {
      if (!String.valueOf(e.getMessage()).contains("discarded")) {
        for (long k = from; k < from + 100; k++) {
          acknowledged.unknown.add(k); // the cluster was recovering: it may have landed
        }
      }
      return false;
    }
    for (long k = from; k < from + 100; k++) {
      acknowledged.add(k);
    }
    return true;
  }
}
