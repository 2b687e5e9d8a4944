package dev.tideway.cli.cluster;

import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.compute.executor.StateTables;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Batch reads for the frontend: a table's committed rows at an epoch, straight from the state
 * store, decoded with the same codecs the Materialize executor wrote them with ({@link
 * StateTables}).
 */
public final class StorageBatchReader implements BatchReader {
  private final StateStore store;
  private final IntFunction<TableDesc> tables;

  /**
   * @param tables the storage layout of a table id (from the catalog); fails for unknown ids
   */
  public StorageBatchReader(StateStore store, IntFunction<TableDesc> tables) {
    this.store = store;
    this.tables = tables;
  }

  @Override
  public List<Row> scan(int tableId, long epoch) {
    TableDesc t = tables.apply(tableId);
    if (epoch > store.committedEpoch()) {
      store.refresh(epoch); // a follower may not have seen the leader's last commit yet
    }
    if (epoch <= 0 || store.committedEpoch() <= 0) {
      return List.of(); // nothing committed yet: every table is empty
    }
    // Read the store's latest committed version: every table of one version is consistent, while
    // an older epoch may lie below what compaction already folded (the ZooKeeper pointer can lag
    // the store by one commit after a restart).
    long at = store.committedEpoch();
    List<Row> out = new ArrayList<>();
    try (StateTable.CloseableRows rows =
        StateTable.readCommitted(store, tableId, StateTables.codecs(t), at)) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }
}
