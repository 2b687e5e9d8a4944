package dev.tideway.storage.table;

import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.value.ValueSerde;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link StateTable} turns rows into storage bytes. {@code pk} must be memcomparable (byte
 * order = pk order) and prefix-compatible (the encoding of a pk prefix is a byte prefix of the full
 * pk's encoding), so prefix and range scans work on bytes; {@code value} encodes the whole row;
 * {@code vnode} maps a pk to its vnode (the distribution key must be part of the pk). {@link #of}
 * builds the standard codecs from {@code common} ({@link KeySerde}, {@link ValueSerde}, {@link
 * VnodeHasher}); {@link StateTables} builds a {@code TableDesc}'s through it.
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
   * The standard codecs, the one place they are built ({@link StateTables#codecs} checks a table's
   * key against its columns and comes here): rows of {@code types}; the pk is columns {@code
   * pkIndices} in {@code orders}, encoded memcomparable by {@link KeySerde} (a shorter row encodes
   * a pk prefix, whose bytes prefix those of every pk it starts); the value is the whole row
   * ({@link ValueSerde}); the vnode hashes the distribution key, given as positions inside the pk
   * ({@code distKeyInPk}; empty = every row in vnode 0, a singleton table), with {@link
   * VnodeHasher}.
   *
   * <p>The vnode mapper reuses one hasher's buffer: use the codecs from one thread at a time (each
   * executor and each batch read builds its own).
   */
  public static RowCodecs of(
      List<DataType> types, int[] pkIndices, List<OrderType> orders, int[] distKeyInPk) {
    List<DataType> pkTypes = new ArrayList<>();
    for (int i : pkIndices) {
      pkTypes.add(types.get(i));
    }
    KeySerde keys = new KeySerde(pkTypes, orders);
    ValueSerde values = new ValueSerde(types);
    VnodeHasher hasher = new VnodeHasher(pkTypes, distKeyInPk);
    PkCodec pk =
        new PkCodec() {
          @Override
          public byte[] encode(Row pkOrPrefix) {
            GrowableBytes out = new GrowableBytes(16 * pkOrPrefix.size() + 8);
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
    return new RowCodecs(pk, value, hasher::vnode);
  }

  /** Ascending pk, distributed by the whole pk. */
  public static RowCodecs ascending(List<DataType> types, int[] pkIndices) {
    List<OrderType> orders = new ArrayList<>();
    int[] dist = new int[pkIndices.length];
    for (int i = 0; i < pkIndices.length; i++) {
      orders.add(OrderType.ASC);
      dist[i] = i;
    }
    return of(types, pkIndices, orders, dist);
  }
}
