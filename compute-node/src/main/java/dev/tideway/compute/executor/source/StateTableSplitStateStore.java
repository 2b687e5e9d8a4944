package dev.tideway.compute.executor.source;

import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.List;
import java.util.OptionalLong;

/**
 * Split offsets in a source state table of rows {@code (split_id varchar, offset bigint)}, pk and
 * distribution key {@code split_id}. Offsets persisted before a barrier are written in the epoch
 * the barrier seals, so they commit (or are dropped by recovery) together with the rows the
 * downstream state derived from them. Restores read through the actor's handle, which after
 * recovery sees exactly the committed state.
 *
 * <p>Confined to the source actor's thread.
 */
public final class StateTableSplitStateStore implements SplitStateStore {
  private static final List<DataType> TYPES = List.of(DataType.VARCHAR, DataType.BIGINT);

  private final StateTable table;

  public StateTableSplitStateStore(StateStore store, int tableId) {
    this.table =
        StateTables.open(
            store, tableId, TYPES, new int[] {0}, List.of(OrderType.ASC), new int[] {0});
  }

  @Override
  public void init(long epoch) {
    table.init(epoch);
  }

  @Override
  public OptionalLong restore(String splitId) {
    Row r = table.get(Row.of(splitId));
    return r == null ? OptionalLong.empty() : OptionalLong.of((Long) r.get(1));
  }

  @Override
  public void persist(long epoch, String splitId, long nextOffset) {
    Row row = Row.of(splitId, nextOffset);
    Row old = table.get(Row.of(splitId));
    if (old == null) {
      table.insert(row);
    } else if (!old.equals(row)) {
      table.update(old, row);
    }
  }

  @Override
  public void seal(long curr, long prev) {
    table.commit(curr, prev);
  }
}
