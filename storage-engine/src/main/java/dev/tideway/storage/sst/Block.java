package dev.tideway.storage.sst;

import dev.tideway.storage.iterator.Entry;
import java.util.Arrays;

/**
 * A decoded run of consecutive SST rows (one aligned 256-row page for gets): keys and values packed
 * into two arrays with offsets, epochs and ops in primitive arrays. Immutable after {@link
 * Builder#build()}; shared by readers through the block cache.
 */
public final class Block {
  private final byte[] keys;
  private final int[] keyOffsets;
  private final long[] epochs;
  private final boolean[] deletes;
  private final byte[] values;
  private final int[] valueOffsets;
  private final int size;

  private Block(Builder b) {
    this.size = b.size;
    this.keys = Arrays.copyOf(b.keys, b.keyLen);
    this.keyOffsets = Arrays.copyOf(b.keyOffsets, size + 1);
    this.epochs = Arrays.copyOf(b.epochs, size);
    this.deletes = Arrays.copyOf(b.deletes, size);
    this.values = Arrays.copyOf(b.values, b.valueLen);
    this.valueOffsets = Arrays.copyOf(b.valueOffsets, size + 1);
  }

  public int size() {
    return size;
  }

  /** Approximate heap bytes, for the cache's weigher. */
  public long heapBytes() {
    return 64L + keys.length + values.length + size * (4L + 4 + 8 + 1);
  }

  public byte[] key(int i) {
    return Arrays.copyOfRange(keys, keyOffsets[i], keyOffsets[i + 1]);
  }

  public long epoch(int i) {
    return epochs[i];
  }

  public boolean isDelete(int i) {
    return deletes[i];
  }

  public byte[] value(int i) {
    return Arrays.copyOfRange(values, valueOffsets[i], valueOffsets[i + 1]);
  }

  public Entry entry(int i) {
    return new Entry(key(i), epochs[i], deletes[i], value(i));
  }

  /** Compares row {@code i}'s key with {@code key}. */
  public int compareKey(int i, byte[] key) {
    return Arrays.compareUnsigned(keys, keyOffsets[i], keyOffsets[i + 1], key, 0, key.length);
  }

  /** The first row whose key is at least {@code key}, or {@link #size()}. */
  public int lowerBound(byte[] key) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareKey(mid, key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Collects rows; grows its arrays as needed. */
  public static final class Builder {
    private byte[] keys;
    private int[] keyOffsets;
    private long[] epochs;
    private boolean[] deletes;
    private byte[] values;
    private int[] valueOffsets;
    private int keyLen;
    private int valueLen;
    private int size;

    public Builder(int rows) {
      rows = Math.max(rows, 1);
      keys = new byte[rows * 16];
      keyOffsets = new int[rows + 1];
      epochs = new long[rows];
      deletes = new boolean[rows];
      values = new byte[rows * 64];
      valueOffsets = new int[rows + 1];
    }

    public void add(
        byte[] k, int kOff, int kLen, long epoch, boolean delete, byte[] v, int vOff, int vLen) {
      if (size == epochs.length) {
        int n = size * 2;
        keyOffsets = Arrays.copyOf(keyOffsets, n + 1);
        epochs = Arrays.copyOf(epochs, n);
        deletes = Arrays.copyOf(deletes, n);
        valueOffsets = Arrays.copyOf(valueOffsets, n + 1);
      }
      if (keyLen + kLen > keys.length) {
        keys = Arrays.copyOf(keys, Math.max(keys.length * 2, keyLen + kLen));
      }
      if (valueLen + vLen > values.length) {
        values = Arrays.copyOf(values, Math.max(values.length * 2, valueLen + vLen));
      }
      System.arraycopy(k, kOff, keys, keyLen, kLen);
      keyLen += kLen;
      System.arraycopy(v, vOff, values, valueLen, vLen);
      valueLen += vLen;
      epochs[size] = epoch;
      deletes[size] = delete;
      size++;
      keyOffsets[size] = keyLen;
      valueOffsets[size] = valueLen;
    }

    public Block build() {
      return new Block(this);
    }
  }
}
