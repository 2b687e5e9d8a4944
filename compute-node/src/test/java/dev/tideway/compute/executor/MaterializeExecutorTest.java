package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaterializeExecutorTest {
  static final TableDesc MV =
      new TableDesc(
          30,
          "mv",
          List.of(
              new ColumnDesc(0, "id", DataType.BIGINT), new ColumnDesc(1, "v", DataType.VARCHAR)),
          List.of(ColumnOrder.asc(0)),
          List.of(0),
          false,
          false);

  @Test
  void writesRowsByPkAndCountsLiveRows() throws Exception {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "varchar");
      src.pushBarrier(Epochs.of(1))
          .pushChunk(
              """
              +  1 a
              +  2 b
              +  3 c
              U- 2 b
              U+ 2 bb
              -  3 c
              -  9 z
              +  4 d D
              """)
          .pushBarrier(Epochs.of(2));
      StateTable table = StateTables.open(store, MV);
      MaterializeExecutor mat = new MaterializeExecutor(new ExecutorInfo(1, 1, "Mat"), src, table);
      List<StreamChunk> out = Drain.chunks(Drain.all(mat));
      assertThat(out).hasSize(1);
      // the delete of the absent key 9 is not passed on: it changed nothing
      assertThat(out.get(0).visibleRows())
          .containsExactly(
              new OpRow(Op.INSERT, Row.of(1L, "a")),
              new OpRow(Op.INSERT, Row.of(2L, "b")),
              new OpRow(Op.INSERT, Row.of(3L, "c")),
              new OpRow(Op.UPDATE_DELETE, Row.of(2L, "b")),
              new OpRow(Op.UPDATE_INSERT, Row.of(2L, "bb")),
              new OpRow(Op.DELETE, Row.of(3L, "c")));
      assertThat(mat.lastEpochLiveRowCountDelta()).isEqualTo(2);
      SyncResult r = store.sync(Epochs.of(1)).get();
      store.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
      List<Row> rows = new ArrayList<>();
      try (StateTable.CloseableRows it =
          StateTable.readCommitted(
              store,
              30,
              StateTables.codecs(
                  30,
                  MV.types(),
                  new int[] {0},
                  List.of(dev.tideway.common.key.OrderType.ASC),
                  new int[] {0}),
              Epochs.of(1))) {
        it.forEachRemaining(rows::add);
      }
      assertThat(rows).containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "bb"));
      assertThat(store.tableStats().get(30).liveRowCount()).isEqualTo(2);
    }
  }

  /**
   * DML is planned against the committed epoch, so an UPDATE right after a DELETE can carry the old
   * row of a key that is gone, and an UPDATE after another UPDATE a stale old row. The table must
   * emit what it actually changed, or a filter view downstream keeps a row the table no longer has.
   */
  @Test
  void emitsTheChangeMadeNotTheStaleChangeAsked() throws Exception {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "varchar");
      src.pushBarrier(Epochs.of(1))
          .pushChunk(
              """
              +  1 a
              +  2 b
              +  3 c
              """)
          .pushBarrier(Epochs.of(2))
          .pushChunk(
              """
              -  1 a
              U- 1 a
              U+ 1 a2
              U- 2 b
              U+ 2 b2
              U- 2 b
              U+ 2 b3
              +  3 c
              +  3 c4
              -  3 stale
              """)
          .pushBarrier(Epochs.of(3));
      StateTable table = StateTables.open(store, MV);
      MaterializeExecutor mat = new MaterializeExecutor(new ExecutorInfo(1, 1, "Mat"), src, table);
      List<StreamChunk> out = Drain.chunks(Drain.all(mat));
      assertThat(out).hasSize(2);
      assertThat(out.get(1).visibleRows())
          .containsExactly(
              new OpRow(Op.DELETE, Row.of(1L, "a")),
              new OpRow(Op.INSERT, Row.of(1L, "a2")),
              new OpRow(Op.UPDATE_DELETE, Row.of(2L, "b")),
              new OpRow(Op.UPDATE_INSERT, Row.of(2L, "b2")),
              new OpRow(Op.UPDATE_DELETE, Row.of(2L, "b2")),
              new OpRow(Op.UPDATE_INSERT, Row.of(2L, "b3")),
              new OpRow(Op.UPDATE_DELETE, Row.of(3L, "c")),
              new OpRow(Op.UPDATE_INSERT, Row.of(3L, "c4")),
              new OpRow(Op.DELETE, Row.of(3L, "c4")));
      assertThat(mat.lastEpochLiveRowCountDelta()).isEqualTo(-1);
    }
  }
}
