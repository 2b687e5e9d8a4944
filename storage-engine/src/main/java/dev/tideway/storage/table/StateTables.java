package dev.tideway.storage.table;

import dev.tideway.common.check.Checks;
import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.value.ValueSerde;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the {@link StateTable}s executors keep their state in, with {@code common}'s encodings: the
 * pk as memcomparable bytes ({@link KeySerde}, in the pk's column orders; a shorter row encodes a
 * pk prefix), the row as a {@link ValueSerde} value, and the vnode as {@link VnodeHasher} over the
 * distribution key, which must lie inside the pk. So every executor's keys sort and distribute
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
    List<DataType> pkTypes = new ArrayList<>();
    for (int i : pk) {
      pkTypes.add(types.get(i));
    }
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
    KeySerde keys = new KeySerde(pkTypes, orders);
    ValueSerde values = new ValueSerde(types);
    VnodeHasher hasher = new VnodeHasher(pkTypes, distInPk);
    RowCodecs.PkCodec pkCodec =
        new RowCodecs.PkCodec() {
          @Override
          public byte[] encode(Row key) {
            GrowableBytes out = new GrowableBytes(16 * key.size() + 8);
            keys.encodePrefixTo(out, key);
            return out.toByteArray();
          }

          @Override
          public Row decode(byte[] bytes) {
            return keys.decode(bytes);
          }
        };
    RowCodecs.ValueCodec valueCodec =
        new RowCodecs.ValueCodec() {
          @Override
          public byte[] encode(Row row) {
            return values.encode(row);
          }

          @Override
          public Row decode(byte[] bytes) {
            return values.decode(bytes);
          }
        };
    return new RowCodecs(pkCodec, valueCodec, hasher::vnode);
  }
}
