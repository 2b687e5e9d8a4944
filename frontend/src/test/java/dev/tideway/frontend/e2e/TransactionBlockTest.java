package dev.tideway.frontend.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * BEGIN … COMMIT/ROLLBACK through pgJDBC, in extended and simple query mode: a block's writes are
 * applied at COMMIT and dropped by ROLLBACK, what a block cannot honour is refused, and the
 * transaction status the driver sees is PostgreSQL's.
 */
class TransactionBlockTest {
  private static TestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = new TestCluster();
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  private static String sqlState(Throwable e) {
    return ((SQLException) e).getSQLState();
  }

  private static TransactionState state(Connection c) throws SQLException {
    return c.unwrap(BaseConnection.class).getTransactionState();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rollbackDropsTheBlocksWritesAndCommitAppliesThemTogether(boolean simple) throws Exception {
    String t = simple ? "tx_simple" : "tx_ext";
    try (Connection c = cluster.connect(simple);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v VARCHAR)");
      st.execute(
          "CREATE MATERIALIZED VIEW " + t + "_n AS SELECT count(*) AS n, sum(id) AS s FROM " + t);
      st.execute("INSERT INTO " + t + " VALUES (1, 'kept'), (2, 'to update'), (3, 'to delete')");

      st.execute("BEGIN");
      assertThat(state(c)).isEqualTo(TransactionState.OPEN);
      assertThat(st.executeUpdate("DELETE FROM " + t + " WHERE id = 1")).isEqualTo(1);
      assertThat(st.executeUpdate("INSERT INTO " + t + " VALUES (10, 'rolled back')")).isEqualTo(1);
      st.execute("ROLLBACK");
      assertThat(state(c)).isEqualTo(TransactionState.IDLE);
      assertThat(TestCluster.rows(st, "SELECT id FROM " + t + " ORDER BY id"))
          .containsExactly("1", "2", "3");

      st.execute("BEGIN");
      assertThat(st.executeUpdate("DELETE FROM " + t + " WHERE id = 3")).isEqualTo(1);
      st.execute("COMMIT");
      st.execute("BEGIN");
      assertThat(st.executeUpdate("UPDATE " + t + " SET v = 'updated' WHERE id = 2")).isEqualTo(1);
      // INSERT ... SELECT into a table the block wrote reads only its source
      assertThat(
              st.executeUpdate(
                  "INSERT INTO "
                      + t
                      + " SELECT g, 'from series' FROM generate_series(50, 51) AS g"))
          .isEqualTo(2);
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)")) {
        for (int i = 100; i < 600; i++) {
          ins.setLong(1, i);
          ins.setString(2, "in block");
          ins.addBatch();
        }
        ins.executeBatch();
      }
      st.execute("COMMIT");
      assertThat(state(c)).isEqualTo(TransactionState.IDLE);
      assertThat(TestCluster.rows(st, "SELECT v FROM " + t + " WHERE id <= 3 ORDER BY id"))
          .containsExactly("kept", "updated");
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM " + t + " WHERE v = 'in block'"))
          .containsExactly("500");
      st.execute("FLUSH");
      assertThat(TestCluster.rows(st, "SELECT n, s FROM " + t + "_n"))
          .containsExactly("504|" + (1 + 2 + 50 + 51 + (100 + 599) * 500 / 2));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void whatABlockCannotHonourIsRefusedAndTheBlockThenOnlyEnds(boolean simple) throws Exception {
    String t = simple ? "txr_simple" : "txr_ext";
    try (Connection c = cluster.connect(simple);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v VARCHAR)");

      // DDL inside a block
      st.execute("BEGIN");
      st.execute("INSERT INTO " + t + " VALUES (1, 'lost with the block')");
      assertThatThrownBy(() -> st.execute("CREATE TABLE " + t + "_other (a INT)"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("25001"))
          .hasMessageContaining("CREATE TABLE cannot run inside a transaction block");
      assertThat(state(c)).isEqualTo(TransactionState.FAILED);
      assertThatThrownBy(() -> st.execute("INSERT INTO " + t + " VALUES (2, 'ignored')"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("25P02"));
      st.execute("COMMIT"); // of a failed block: rolls back
      assertThat(state(c)).isEqualTo(TransactionState.IDLE);
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM " + t)).containsExactly("0");
      assertThat(TestCluster.rows(st, "SHOW TABLES")).doesNotContain(t + "_other");

      // a read after the block wrote would miss its writes: refused
      st.execute("BEGIN");
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM " + t)).containsExactly("0");
      st.execute("INSERT INTO " + t + " VALUES (3, 'x')");
      assertThat(TestCluster.rows(st, "SELECT 1 + 1")).containsExactly("2"); // reads no table
      assertThatThrownBy(() -> st.executeQuery("SELECT count(*) FROM " + t))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
          .hasMessageContaining(t);
      st.execute("ROLLBACK");
      st.execute("BEGIN");
      st.execute("INSERT INTO " + t + " VALUES (3, 'x')");
      assertThatThrownBy(() -> st.execute("DELETE FROM " + t + " WHERE id = 3"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"));
      st.execute("ROLLBACK");

      // a bad row fails the block: nothing of it is written, even with COMMIT
      st.execute("BEGIN");
      st.execute("INSERT INTO " + t + " VALUES (4, 'before the bad row')");
      assertThatThrownBy(() -> st.execute("INSERT INTO " + t + " VALUES (NULL, 'bad')"))
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("23502"));
      st.execute("COMMIT");
      assertThat(TestCluster.rows(st, "SELECT count(*) FROM " + t)).containsExactly("0");

      // autocommit off: the driver opens the block, commit() ends it
      c.setAutoCommit(false);
      st.execute("INSERT INTO " + t + " VALUES (5, 'committed')");
      c.rollback();
      st.execute("INSERT INTO " + t + " VALUES (6, 'committed')");
      c.commit();
      c.setAutoCommit(true);
      assertThat(TestCluster.rows(st, "SELECT id FROM " + t)).containsExactly("6");
    }
  }
}
