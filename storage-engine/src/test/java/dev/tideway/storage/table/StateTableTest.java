package dev.tideway.storage.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateTableTest {
  static final Schema SCHEMA =
      Schema.of(
          Field.of("id", DataType.BIGINT),
          Field.of("name", DataType.VARCHAR),
          Field.of("n", DataType.INT));
  static final RowCodecs CODECS = RowCodecs.ascending(SCHEMA.types(), new int[] {0});

  static List<Row> drain(StateTable.CloseableRows rows) {
    List<Row> out = new ArrayList<>();
    try (rows) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }

  @Test
  void typedRowsRoundTripThroughEpochsAndCommits() throws Exception {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      StateTable t = StateTable.open(store, 7, new int[] {0}, CODECS);
      t.init(Epochs.of(1));
      t.insert(Row.of(1L, "a", 10));
      t.insert(Row.of(2L, "b", 20));
      t.insert(Row.of(-5L, null, 30));
      assertThat(t.get(Row.of(2L))).isEqualTo(Row.of(2L, "b", 20));
      t.commit(Epochs.of(2), Epochs.of(1));
      t.update(Row.of(2L, "b", 20), Row.of(2L, "bb", 21));
      t.delete(Row.of(1L, "a", 10));
      assertThat(t.get(Row.of(1L))).isNull();
      t.commit(Epochs.of(3), Epochs.of(2));
      SyncResult r = store.sync(Epochs.of(2)).get();
      store.commitEpoch(Epochs.of(2), r.ssts(), r.statsDelta());

      assertThat(drain(StateTable.readCommitted(store, 7, CODECS, Epochs.of(1))))
          .containsExactlyInAnyOrder(
              Row.of(1L, "a", 10), Row.of(2L, "b", 20), Row.of(-5L, null, 30));
      assertThat(drain(StateTable.readCommitted(store, 7, CODECS, Epochs.of(2))))
          .containsExactlyInAnyOrder(Row.of(2L, "bb", 21), Row.of(-5L, null, 30));
      assertThat(store.tableStats().get(7).liveRowCount()).isEqualTo(2);
      assertThat(store.tableStats().get(7).totalKeyCount())
          .isEqualTo(5); // 3 inserts, 1 update, 1 tombstone
      assertThat(drain(t.iterAll())).hasSize(2);
      t.close();
    }
  }

  @Test
  void prefixAndRangeScansFollowPkOrderWithinAVnode() {
    Schema s =
        Schema.of(
            Field.of("g", DataType.INT),
            Field.of("k", DataType.BIGINT),
            Field.of("v", DataType.VARCHAR));
    RowCodecs codecs =
        RowCodecs.of(
            s.types(), new int[] {0, 1}, List.of(OrderType.ASC, OrderType.ASC), new int[0]);
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      StateTable t = StateTable.open(store, 3, new int[] {0, 1}, codecs);
      t.init(Epochs.of(1));
      for (int g = 0; g < 3; g++) {
        for (long k = -2; k <= 2; k++) {
          t.insert(Row.of(g, k, g + ":" + k));
        }
      }
      assertThat(drain(t.iter(0, Row.of(1))).stream().map(r -> r.get(2)).toList())
          .containsExactly("1:-2", "1:-1", "1:0", "1:1", "1:2");
      assertThat(
              drain(t.iterRange(0, Row.of(1, 0L), Row.of(2, -1L))).stream()
                  .map(r -> r.get(2))
                  .toList())
          .containsExactly("1:0", "1:1", "1:2", "2:-2");
    }
  }
}
