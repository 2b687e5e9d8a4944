package dev.tideway.backfill.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.backfill.sim.TableWriter;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Persisted vnode states read back as written once committed; a wrong layout fails loudly. */
class BackfillStateTableTest {
  private final UpstreamTable up = new UpstreamTable(TableWriter.TABLE, List.of(0));

  @Test
  void committedStatesRoundTrip() {
    TableDesc desc = BackfillStateTable.layout(20, "bf", TableWriter.TABLE);
    try (Storage s = StateStores.open("memory://", StorageOptions.defaults())) {
      BackfillStateTable t = BackfillStateTable.open(s, desc, up, true);
      t.init(Epochs.of(1));
      byte[] pos = up.pk(TableWriter.row(42, 0));
      t.write(3, new VnodeProgress.InProgress(pos, 17), Epochs.of(1));
      t.write(4, new VnodeProgress.Completed(null, 0), BackfillStateTable.EPOCH_FOLLOWING);
      t.commit(Epochs.of(2), Epochs.of(1));
      SyncResult r = s.sync(Epochs.of(1)).join();
      s.commitEpoch(r.epoch(), r.ssts(), r.statsDelta());
      Map<Integer, BackfillStateTable.Persisted> m =
          BackfillStateTable.readCommitted(s, desc, up, Epochs.of(1));
      assertThat(m).containsOnlyKeys(3, 4);
      VnodeProgress.InProgress p3 = (VnodeProgress.InProgress) m.get(3).progress();
      assertThat(p3.pos()).isEqualTo(pos);
      assertThat(p3.rows()).isEqualTo(17);
      assertThat(m.get(3).epoch()).isEqualTo(Epochs.of(1));
      assertThat(m.get(4).progress()).isEqualTo(new VnodeProgress.Completed(null, 0));
      assertThat(m.get(4).epoch()).isEqualTo(BackfillStateTable.EPOCH_FOLLOWING);
    }
  }

  @Test
  void snapshotKindRejectsTheLayoutWithoutEpoch() {
    TableDesc noEpoch =
        new TableDesc(
            21,
            "bf",
            List.of(
                new ColumnDesc(0, "vnode", DataType.SMALLINT),
                new ColumnDesc(1, "id", DataType.BIGINT),
                new ColumnDesc(2, "row_count", DataType.BIGINT),
                new ColumnDesc(3, "finished", DataType.BOOLEAN)),
            List.of(ColumnOrder.asc(0)),
            List.of(),
            false,
            false);
    BackfillStateTable.checkLayout(noEpoch, up, false); // arrangement / no-shuffle accept it
    assertThatThrownBy(() -> BackfillStateTable.checkLayout(noEpoch, up, true))
        .hasMessageContaining("epoch BIGINT");
  }
}
