package dev.tideway.storage.table;

import dev.tideway.common.row.Row;

/**
 * How a {@link StateTable} turns rows into storage bytes. {@code pk} must be memcomparable (byte
 * order = pk order) and prefix-compatible (the encoding of a pk prefix is a byte prefix of the
 * full pk's encoding), so prefix and range scans work on bytes; {@code value} encodes the whole
 * row; {@code vnode} maps a pk to its vnode (the distribution key must be part of the pk).
 */
public record RowCodecs(PkCodec pk, ValueCodec value, VnodeMapper vnode) {
  /** Memcomparable pk encoding. */
  public interface PkCodec {
    byte[] encode(Row pk);

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
}
