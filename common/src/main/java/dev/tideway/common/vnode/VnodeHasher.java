package dev.tideway.common.vnode;

import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Computes {@link VirtualNode vnodes} for rows of one schema and distribution key: encodes the key
 * columns memcomparable {@code ASC NULLS FIRST} into a reused buffer and takes {@code CRC32C mod
 * 256}. The chunk paths read primitive columns directly (no {@link Row}, no boxing).
 *
 * <p>Not thread-safe (reuses its buffer and checksum): one per owning thread, e.g. per dispatcher.
 */
public final class VnodeHasher {
  private final KeySerde keySerde;
  private final int[] distKeyIndices;
  private final GrowableBytes buffer = new GrowableBytes(64);
  private final CRC32C crc = new CRC32C();

  /** Rows of {@code rowTypes}; the distribution key is columns {@code distKeyIndices}. */
  public VnodeHasher(List<DataType> rowTypes, int[] distKeyIndices) {
    List<DataType> keyTypes = new ArrayList<>(distKeyIndices.length);
    for (int i : distKeyIndices) {
      keyTypes.add(rowTypes.get(i));
    }
    this.keySerde =
        new KeySerde(keyTypes, Collections.nCopies(keyTypes.size(), OrderType.ASC_NULLS_FIRST));
    this.distKeyIndices = distKeyIndices.clone();
  }

  /** The vnode of a full row (its distribution key columns are picked out). */
  public int vnode(Row row) {
    buffer.reset();
    keySerde.encodeTo(buffer, row, distKeyIndices);
    return hash();
  }

  /** The vnode of row {@code row} of {@code chunk}. */
  public int vnode(StreamChunk chunk, int row) {
    buffer.reset();
    keySerde.encodeTo(buffer, chunk, row, distKeyIndices);
    return hash();
  }

  /** Writes the vnode of every row of {@code chunk}, visible or not, into {@code out[0, size)}. */
  public void vnodes(StreamChunk chunk, int[] out) {
    int n = chunk.size();
    for (int i = 0; i < n; i++) {
      buffer.reset();
      keySerde.encodeTo(buffer, chunk, i, distKeyIndices);
      out[i] = hash();
    }
  }

  private int hash() {
    crc.reset();
    crc.update(buffer.array(), 0, buffer.size());
    return (int) (crc.getValue() & (VirtualNode.COUNT - 1));
  }
}
