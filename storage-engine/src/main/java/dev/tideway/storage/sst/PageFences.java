package dev.tideway.storage.sst;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The key index of an SST (format 2): the last key of every {@code rowsPerFence} rows, in the
 * footer, so a reader finds a key's page without Parquet's column index.
 *
 * <p>Why not the column index: it needs Parquet's min/max statistics of the key column, and those
 * cost two byte-by-byte comparisons per row written (Parquet's {@code Binary} comparator compares
 * byte by byte): 45% of a compaction's CPU and most of a flush's, measured on a bulk INSERT. Keys
 * arrive sorted, so the writer only remembers every {@code rowsPerFence}-th key.
 *
 * <p>Encoding: see {@link KeyListWriter} (footer values are strings).
 */
final class PageFences {
  private PageFences() {}

  /** Gathers fences while rows are written (keys in storage order). */
  static final class Builder {
    private final int rowsPerFence;
    private final KeyListWriter out = new KeyListWriter();
    private long rows;
    private byte[] last;

    Builder(int rowsPerFence) {
      this.rowsPerFence = rowsPerFence;
    }

    int rowsPerFence() {
      return rowsPerFence;
    }

    void add(byte[] key) {
      rows++;
      last = key;
      if (rows % rowsPerFence == 0) {
        out.add(key);
      }
    }

    /** The encoded fences; the last key closes the final partial group. */
    String finish() {
      if (rows % rowsPerFence != 0) {
        out.add(last);
      }
      return out.finish();
    }
  }

  /**
   * Sorted keys as footer text: each key as {@code varint(shared prefix with the previous key)
   * varint(suffix length) suffix}, the whole in base64.
   */
  static final class KeyListWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private byte[] previous = new byte[0];
    private int count;

    void add(byte[] key) {
      int shared = Arrays.mismatch(previous, key);
      if (shared < 0) {
        shared = key.length; // equal keys (versions of one key across a fence)
      }
      writeVarint(shared);
      writeVarint(key.length - shared);
      out.write(key, shared, key.length - shared);
      previous = key;
      count++;
    }

    int count() {
      return count;
    }

    String finish() {
      return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    private void writeVarint(int v) {
      while ((v & ~0x7F) != 0) {
        out.write((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out.write(v);
    }
  }

  /**
   * Decodes fences written by {@link Builder}, or any key list of a {@link KeyListWriter}.
   *
   * @throws IllegalArgumentException when the text is not a well-formed fence list
   */
  static byte[][] decode(String encoded) {
    byte[] in = Base64.getDecoder().decode(encoded);
    List<byte[]> keys = new ArrayList<>();
    byte[] previous = new byte[0];
    int[] pos = {0};
    while (pos[0] < in.length) {
      int shared = readVarint(in, pos);
      int suffix = readVarint(in, pos);
      if (shared > previous.length || suffix < 0 || pos[0] + suffix > in.length) {
        throw new IllegalArgumentException("malformed page fences at byte " + pos[0]);
      }
      byte[] k = Arrays.copyOf(previous, shared + suffix);
      System.arraycopy(in, pos[0], k, shared, suffix);
      pos[0] += suffix;
      keys.add(k);
      previous = k;
    }
    return keys.toArray(new byte[0][]);
  }

  private static int readVarint(byte[] in, int[] pos) {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos[0] >= in.length) {
        throw new IllegalArgumentException("truncated page fences");
      }
      int b = in[pos[0]++];
      v |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("malformed varint in page fences");
  }
}
