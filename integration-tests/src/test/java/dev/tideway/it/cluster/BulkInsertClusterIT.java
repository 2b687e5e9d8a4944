package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.local.LocalCluster;
import dev.tideway.common.time.Clock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One INSERT of a million rows on a real cluster of separate processes (ZooKeeper, two metas, two
 * compute nodes, a frontend), with Pekko's largest message set far below the default (128 KiB
 * through its environment twin), so every DML chunk and exchange frame must be cut to fit: the
 * statement completes, FLUSH commits it, the table and a view over it hold exactly its rows, and
 * every process is still a member. Before, 100k rows in one statement overflowed a frame, hung for
 * 60 s and took the compute nodes out of the cluster. A row larger than the largest message is
 * refused with a clear error and harms nothing.
 */
class BulkInsertClusterIT {
  @TempDir Path dir;

  @Test
  void aMillionRowInsertOnAClusterWithSmallFramesCompletesExactly() throws Exception {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    LocalCluster.Options o =
        LocalCluster.Options.of(dir, jar)
            .withHeap("512m")
            .withEnv(
                Map.of(
                    "TIDEWAY_CLUSTER_PEKKO_REMOTE_ARTERY_ADVANCED_MAXIMUM_LARGE_FRAME_SIZE",
                    "128KiB"));
    try (LocalCluster c = LocalCluster.start(o, Clock.system(), Duration.ofMinutes(3));
        Connection conn = c.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, k INT, v BIGINT, s VARCHAR)");
      st.execute(
          "CREATE MATERIALIZED VIEW by_k AS SELECT k, count(*) AS n, sum(v) AS s FROM big GROUP BY k");
      st.execute(
          "INSERT INTO big SELECT g, CAST(g % 1000 AS INT), g * 3, 'row-' || CAST(g AS VARCHAR)"
              + " FROM generate_series(1, 1000000) AS g");
      st.execute("FLUSH");
      assertThat(PlaygroundIT.rows(st, "SELECT count(*), sum(v), count(DISTINCT s) FROM big"))
          .containsExactly("1000000|1500001500000|1000000");
      assertThat(PlaygroundIT.rows(st, "SELECT count(*), sum(n), sum(s) FROM by_k"))
          .containsExactly("1000|1000000|1500001500000");

      // a row larger than the largest message: refused, naming the limit; nothing else is harmed
      try (PreparedStatement ps = conn.prepareStatement("INSERT INTO big VALUES (?, 1, 1, ?)")) {
        ps.setLong(1, 2_000_000L);
        ps.setString(2, "x".repeat(200_000));
        assertThatThrownBy(ps::executeUpdate)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("larger than the largest DML message");
      }
      st.execute("INSERT INTO big VALUES (2000001, 7, 7, 'small')");
      st.execute("FLUSH");
      assertThat(PlaygroundIT.rows(st, "SELECT count(*) FROM big")).containsExactly("1000001");
      for (String p : List.of("compute-1", "compute-2", "frontend", "meta-1", "meta-2")) {
        assertThat(c.isAlive(p)).as("%s is still running", p).isTrue();
      }
      assertThat(c.computeNodesRegistered()).isEqualTo(2);
    }
  }
}
