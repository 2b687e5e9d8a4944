package dev.tideway.common.vnode;

import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Virtual nodes: the 256 units a table's rows are distributed, stored and scaled by. {@code vnode =
 * CRC32C(memcomparable ASC NULLS FIRST encoding of the distribution key columns) mod 256} ({@link
 * VnodeHasher} computes it). The vnode is persisted in every storage key ({@code table_id(4) |
 * vnode(2) | memcomparable(pk)}) and decides which actor owns a row, so the function must never
 * change for existing tables: {@link #HASH_VERSION} names it and a golden test pins its output.
 *
 * <p>Why this hash: the key encoding maps SQL-equal values to equal bytes ({@code 1.0} and {@code
 * 1.00}, {@code -0.0} and {@code 0.0}), so equal keys always land on the same vnode; CRC32C is in
 * the JDK and hardware-accelerated. An empty distribution key (a singleton) maps to vnode 0.
 *
 * <p>The static methods here allocate a {@link VnodeHasher} per call; hot paths keep one.
 */
public final class VirtualNode {
  /** Number of virtual nodes; a vnode is a value in {@code [0, COUNT)}. */
  public static final int COUNT = 256;

  /** The version of the row-to-vnode function; a new function would need a new version. */
  public static final int HASH_VERSION = 1;

  private VirtualNode() {}

  /** The vnode of every row of {@code chunk} (visible or not), distribution key columns given. */
  public static int[] vnodes(StreamChunk chunk, int[] distKeyIndices) {
    int[] out = new int[chunk.size()];
    new VnodeHasher(chunk.types(), distKeyIndices).vnodes(chunk, out);
    return out;
  }

  /** The vnode of a distribution key given as a row of values of {@code keyTypes}. */
  public static int of(List<DataType> keyTypes, Row distKey) {
    int[] all = new int[keyTypes.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    return new VnodeHasher(keyTypes, all).vnode(distKey);
  }

  /** The vnode of an already encoded (ASC NULLS FIRST memcomparable) distribution key. */
  public static int ofEncoded(byte[] encodedKey, int offset, int length) {
    CRC32C c = new CRC32C();
    c.update(encodedKey, offset, length);
    return (int) (c.getValue() & (COUNT - 1));
  }
}
