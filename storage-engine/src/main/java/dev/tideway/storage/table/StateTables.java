package dev.tideway.storage.table;

import dev.tideway.common.check.Checks;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the {@link StateTable}s executors keep their state in, and gives the codecs of a {@link
 * TableDesc} to everyone else who reads or writes such a table (batch reads, backfill state): one
 * row codec per table, so a table written by one is readable by the others. The codecs are {@link
 * RowCodecs#of} ({@code common}'s encodings: the pk as memcomparable bytes in the pk's column
 * orders, a shorter row encoding a pk prefix; the row as a value; the vnode hashed from the
 * distribution key, which must lie inside the pk), so every executor's keys sort and distribute
 * exactly as the rest of the system expects.
 *
 * <p>Stateless.
 */
public final class StateTables {
  private StateTables() {}

  /** The table {@code desc} describes. Call {@code init(epoch)} on the first barrier. */
  public static StateTable open(StateStore store, TableDesc desc) {
    return StateTable.open(store, desc.tableId(), pkOf(desc), codecs(desc));
  }

  /** The codecs of the table {@code desc} describes (batch reads use them too). */
  public static RowCodecs codecs(TableDesc desc) {
    List<OrderType> orders = new ArrayList<>();
    for (ColumnOrder o : desc.pk()) {
      orders.add(new OrderType(o.descending(), o.nullsFirst()));
    }
    int[] dist = desc.distributionKey().stream().mapToInt(Integer::intValue).toArray();
    return codecs(desc.tableId(), desc.types(), pkOf(desc), orders, dist);
  }

  private static int[] pkOf(TableDesc desc) {
    return desc.pkIndices().stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * A table of rows of {@code types} keyed by columns {@code pk} in {@code orders}, distributed by
   * columns {@code distributionKey} (each must be a pk column; empty = one vnode).
   */
  public static StateTable open(
      StateStore store,
      int tableId,
      List<DataType> types,
      int[] pk,
      List<OrderType> orders,
      int[] distributionKey) {
    return StateTable.open(store, tableId, pk, codecs(tableId, types, pk, orders, distributionKey));
  }

  /** The codecs of such a table. */
  public static RowCodecs codecs(
      int tableId, List<DataType> types, int[] pk, List<OrderType> orders, int[] distributionKey) {
    Checks.checkArgument(
        orders.size() == pk.length,
        "table %s: %s pk columns but %s orders",
        tableId,
        pk.length,
        orders.size());
    int[] distInPk = new int[distributionKey.length];
    for (int d = 0; d < distributionKey.length; d++) {
      distInPk[d] = -1;
      for (int k = 0; k < pk.length; k++) {
        if (pk[k] == distributionKey[d]) {
          distInPk[d] = k;
        }
      }
      Checks.checkArgument(
          distInPk[d] >= 0,
          "table %s: distribution key column %s is not in the pk",
          tableId,
          distributionKey[d]);
    }
    return RowCodecs.of(types, pk, orders, distInPk);
  }
}
