package dev.tideway.storage.table;

import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.value.ValueSerde;
import dev.tideway.common.vnode.VirtualNode;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link StateTable} turns rows into storage bytes. {@code pk} must be memcomparable (byte
 * order = pk order) and prefix-compatible (the encoding of a pk prefix is a byte prefix of the full
 * pk's encoding), so prefix and range scans work on bytes; {@code value} encodes the whole row;
 * {@code vnode} maps a pk to its vnode (the distribution key must be part of the pk). {@link #of}
 * builds the standard codecs from {@code common} ({@link KeySerde}, {@link ValueSerde}, {@link
 * VirtualNode}).
 */
public record RowCodecs(PkCodec pk, ValueCodec value, VnodeMapper vnode) {
  /** Memcomparable pk encoding; a shorter row encodes a pk prefix. */
  public interface PkCodec {
    byte[] encode(Row pkOrPrefix);

    Row decode(byte[] bytes);
  }

  /** Row value encoding. */
  public interface ValueCodec {
    byte[] encode(Row row);

    Row decode(byte[] bytes);
  }

  /** The vnode of a pk. */
  public interface VnodeMapper {
    int vnode(Row pk);
  }

  /**
   * The standard codecs of a table: pk columns {@code pkIndices} with {@code orders}, the whole row
   * as value, vnode = hash of the distribution key, given as positions inside the pk ({@code
   * distKeyInPk}; empty = every row in vnode 0, a singleton table).
   */
  public static RowCodecs of(
      Schema schema, int[] pkIndices, List<OrderType> orders, int[] distKeyInPk) {
    List<DataType> pkTypes = new ArrayList<>();
    for (int i : pkIndices) {
      pkTypes.add(schema.type(i));
    }
    KeySerde keys = new KeySerde(pkTypes, orders);
    ValueSerde values = new ValueSerde(schema.types());
    List<DataType> distTypes = new ArrayList<>();
    for (int i : distKeyInPk) {
      distTypes.add(pkTypes.get(i));
    }
    PkCodec pk =
        new PkCodec() {
          @Override
          public byte[] encode(Row pkOrPrefix) {
            if (pkOrPrefix.size() == keys.columnCount()) {
              return keys.encode(pkOrPrefix);
            }
            GrowableBytes out = new GrowableBytes(16);
            keys.encodePrefixTo(out, pkOrPrefix);
            return out.toByteArray();
          }

          @Override
          public Row decode(byte[] bytes) {
            return keys.decode(bytes);
          }
        };
    ValueCodec value =
        new ValueCodec() {
          @Override
          public byte[] encode(Row row) {
            return values.encode(row);
          }

          @Override
          public Row decode(byte[] bytes) {
            return values.decode(bytes);
          }
        };
    VnodeMapper vnode =
        distKeyInPk.length == 0 ? p -> 0 : p -> VirtualNode.of(distTypes, p.project(distKeyInPk));
    return new RowCodecs(pk, value, vnode);
  }

  /** Ascending pk, distributed by the whole pk. */
  public static RowCodecs ascending(Schema schema, int[] pkIndices) {
    List<OrderType> orders = new ArrayList<>();
    int[] dist = new int[pkIndices.length];
    for (int i = 0; i < pkIndices.length; i++) {
      orders.add(OrderType.ASC);
      dist[i] = i;
    }
    return of(schema, pkIndices, orders, dist);
  }
}
