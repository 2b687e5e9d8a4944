package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Views that read one table twice, on the real playground. The table's actor then feeds both inputs
 * of the view's join through bounded channels: through an aggregate that emits only at barriers (a
 * table joined with an aggregate of itself, the shape of Nexmark q5 and q7) or directly (a
 * self-join on the table's key). A join that blocked on its quiet input let the busy input's
 * channel fill, which stopped the table's actor before it sent the barrier the quiet input waited
 * for: every checkpoint timed out and each recovery threw the writes away. The self-join on the key
 * put both scans into the join's actor, on one channel, and never finished creating. Here large
 * inserts must flush promptly, and each view must equal its query recomputed over the final table.
 */
class SelfJoinIT {
  @TempDir Path dir;

  private static final String TOP_PER_GROUP =
      "SELECT x.a, x.b, y.m FROM t x JOIN (SELECT a, max(b) AS m FROM t GROUP BY a) y"
          + " ON x.a = y.a AND x.b = y.m";

  /** A self-join on the table's key: both sides scan the table hashed the same way. */
  private static final String SAME_KEY =
      "SELECT x.k, x.v, y.v AS v2 FROM u x JOIN u y ON x.k = y.k";

  @Test
  void viewsThatJoinATableWithItselfKeepUpWithLargeInserts() throws Exception {
    Playground.Options o =
        new Playground.Options(
            dir,
            "127.0.0.1",
            0,
            PlaygroundIT.freePort(),
            PlaygroundIT.freePort(),
            PlaygroundIT.freePort(),
            2000);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (a INT, b INT)");
      st.execute("INSERT INTO t SELECT g % 100, g FROM generate_series(1, 20000) g");
      st.execute("FLUSH");
      st.execute("CREATE MATERIALIZED VIEW top_per_group AS " + TOP_PER_GROUP);
      // joined on the key the table is hashed by: the planner used to put both scans into the
      // join's actor, where they shared one channel and the view never finished creating
      st.execute("CREATE TABLE u (k INT PRIMARY KEY, v INT)");
      st.execute("CREATE MATERIALIZED VIEW same_key AS " + SAME_KEY);
      for (int round = 1; round <= 3; round++) {
        long start = System.nanoTime();
        st.execute(
            "INSERT INTO t SELECT g % 100, g + "
                + round * 1_000_000
                + " FROM generate_series(1, 150000) g");
        st.execute(
            "INSERT INTO u SELECT g, g % 7 FROM generate_series("
                + round * 100_000
                + ", "
                + (round * 100_000 + 49_999)
                + ") g");
        st.execute("FLUSH");
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(
            "SelfJoinIT: round %d: 150000 rows (and 50000 into u) inserted and flushed in %d ms%n",
            round, ms);
        assertThat(ms)
            .as("round %s: insert + flush of 150k rows (a stalled join times out at 60 s)", round)
            .isLessThan(30_000);
      }
      assertThat(PlaygroundIT.rows(st, "SELECT count(*) FROM t")).containsExactly("470000");
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM top_per_group ORDER BY a"))
          .hasSize(100)
          .isEqualTo(PlaygroundIT.rows(st, TOP_PER_GROUP + " ORDER BY x.a"));
      assertThat(PlaygroundIT.rows(st, "SELECT count(*) FROM same_key")).containsExactly("150000");
      assertThat(PlaygroundIT.rows(st, "SELECT * FROM same_key WHERE k % 1000 = 0"))
          .isEqualTo(PlaygroundIT.rows(st, SAME_KEY + " WHERE x.k % 1000 = 0"));
    }
  }
}
