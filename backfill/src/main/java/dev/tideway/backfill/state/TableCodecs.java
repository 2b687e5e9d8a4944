package dev.tideway.backfill.state;

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
import dev.tideway.storage.table.RowCodecs;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link RowCodecs} of a {@link TableDesc}, built exactly as the compute node's state tables
 * build theirs (pk: {@link KeySerde} in the pk's orders, prefix-capable; value: {@link ValueSerde}
 * of all columns; vnode: {@link VnodeHasher} over the distribution key inside the pk), so a table
 * written by one is readable by the other. Stateless.
 */
public final class TableCodecs {
  private TableCodecs() {}

  public static RowCodecs of(TableDesc desc) {
    List<DataType> types = desc.types();
    int[] pk = desc.pkIndices().stream().mapToInt(Integer::intValue).toArray();
    List<DataType> pkTypes = new ArrayList<>();
    List<OrderType> orders = new ArrayList<>();
    for (ColumnOrder o : desc.pk()) {
      pkTypes.add(types.get(o.index()));
      orders.add(new OrderType(o.descending(), o.nullsFirst()));
    }
    int[] distInPk = new int[desc.distributionKey().size()];
    for (int d = 0; d < distInPk.length; d++) {
      int col = desc.distributionKey().get(d);
      distInPk[d] = -1;
      for (int k = 0; k < pk.length; k++) {
        if (pk[k] == col) {
          distInPk[d] = k;
        }
      }
      Checks.checkArgument(
          distInPk[d] >= 0,
          "table %s: distribution key column %s is not in the pk",
          desc.tableId(),
          col);
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
