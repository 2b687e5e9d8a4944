package dev.tideway.frontend.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgSession;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the frontend sends to {@link DmlWriter}, the contract a compute node's Dml executor relies
 * on: full rows with hidden columns; a table without a primary key gets {@code _row_id} NULL on
 * INSERT (the Dml executor fills it) and its stored value on UPDATE/DELETE; an UPDATE that keeps
 * the key is one update pair per row, one that may change it deletes every old row before it
 * inserts a new one; each statement is one write.
 */
class DmlWriterContractTest {
  record Write(int tableId, List<List<Object>> deletes, List<List<Object>> inserts) {}

  private static List<List<Object>> values(List<Row> rows) {
    return rows.stream().map(r -> (List<Object>) new ArrayList<>(r.toList())).toList();
  }

  @Test
  void insertSendsNullRowIdAndUpdateSendsPairsWithTheStoredRowId() {
    InMemoryCluster cluster = new InMemoryCluster(Clock.system());
    List<Write> writes = new ArrayList<>();
    DmlWriter recording =
        tableId -> {
          DmlWriter.Write inner = cluster.begin(tableId);
          List<Row> deletes = new ArrayList<>();
          List<Row> inserts = new ArrayList<>();
          return new DmlWriter.Write() {
            @Override
            public void delete(Row row) {
              deletes.add(row);
              inner.delete(row);
            }

            @Override
            public void insert(Row row) {
              inserts.add(row);
              inner.insert(row);
            }

            @Override
            public void update(Row before, Row after) {
              deletes.add(before);
              inserts.add(after);
              inner.update(before, after);
            }

            @Override
            public long rowsSent() {
              return inner.rowsSent();
            }

            @Override
            public List<dev.tideway.frontend.meta.WriteAck> finish() {
              writes.add(new Write(tableId, values(deletes), values(inserts)));
              return inner.finish();
            }

            @Override
            public void abort() {
              inner.abort();
            }
          };
        };
    PgSession s = new Frontend(cluster, cluster, recording).open("root", "dev");
    run(s, "CREATE TABLE ev (kind VARCHAR, n INT)");
    int id = cluster.relation("ev").orElseThrow().id();
    run(s, "INSERT INTO ev (n, kind) VALUES (1, 'a'), (2, 'b')");
    assertThat(writes).hasSize(1);
    assertThat(writes.get(0).tableId()).isEqualTo(id);
    assertThat(writes.get(0).deletes()).isEmpty();
    assertThat(writes.get(0).inserts())
        .as("columns in table order, _row_id last and NULL")
        .containsExactly(list("a", 1, null), list("b", 2, null));
    List<Object> stored = values(cluster.scan(id, cluster.committedEpoch())).get(0);
    Object rowId = stored.get(2);
    assertThat(rowId).as("the cluster filled the row id").isNotNull();

    assertThat(run(s, "UPDATE ev SET n = n + 10 WHERE kind = '" + stored.get(0) + "'").tag())
        .isEqualTo("UPDATE 1");
    Write update = writes.get(1);
    assertThat(update.deletes()).containsExactly(stored);
    assertThat(update.inserts())
        .containsExactly(list(stored.get(0), (Integer) stored.get(1) + 10, rowId));

    assertThat(run(s, "DELETE FROM ev WHERE n > 10").tag()).isEqualTo("DELETE 1");
    Write delete = writes.get(2);
    assertThat(delete.deletes())
        .containsExactly(list(stored.get(0), (Integer) stored.get(1) + 10, rowId));
    assertThat(delete.inserts()).isEmpty();
  }

  private static List<Object> list(Object... v) {
    return new ArrayList<>(java.util.Arrays.asList(v));
  }

  private static PgSession.Result run(PgSession s, String sql) {
    PgSession.Prepared p = s.prepare(sql, new int[0]);
    PgSession.Result r = s.execute(p, List.of(), n -> {});
    s.sync(false); // as the protocol ends each statement of a simple query
    return r;
  }
}
