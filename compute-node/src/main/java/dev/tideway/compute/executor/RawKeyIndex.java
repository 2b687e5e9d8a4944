package dev.tideway.compute.executor;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.StreamChunk;
import java.util.Arrays;

/**
 * A hash map from the raw 64-bit values of a row's key columns to a value, for executors whose key
 * columns are all {@link LongVector}s (BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ): two keys are equal
 * iff their raw values are, so a lookup needs neither a {@code Row}, nor decoded {@code
 * LocalDateTime}s, nor their hash codes. It sits in front of an executor's own map as a cache of
 * it: a miss falls back to the executor's path, which then {@link #put}s the answer.
 *
 * <p>Open addressing with linear probing, at most half full; no removal: the owner {@link #clear}s
 * it whenever entries may have left its own map (at barriers).
 *
 * <p>Confined to the executor's actor thread.
 *
 * @param <V> the mapped values
 */
final class RawKeyIndex<V> {
  private final int width;
  private long[] keys;
  private Object[] values;
  private int size;

  /** An index of keys of {@code width} columns. */
  RawKeyIndex(int width) {
    this.width = width;
    this.keys = new long[64 * width];
    this.values = new Object[64];
  }

  /**
   * The key columns {@code columns} of {@code chunk} as long vectors, or null when one is not
   * long-backed (then this index does not apply to the chunk).
   */
  static LongVector[] longColumns(StreamChunk chunk, int[] columns) {
    LongVector[] out = new LongVector[columns.length];
    for (int k = 0; k < columns.length; k++) {
      ColumnVector v = chunk.column(columns[k]);
      if (!(v instanceof LongVector l)) {
        return null;
      }
      out[k] = l;
    }
    return out;
  }

  /** True when row {@code i} has a NULL in one of {@code cols} (such keys are not indexed). */
  static boolean anyNull(LongVector[] cols, int i) {
    for (LongVector c : cols) {
      if (c.isNull(i)) {
        return true;
      }
    }
    return false;
  }

  /** The hash of row {@code i}'s key. */
  static int hash(LongVector[] cols, int i) {
    long h = 0x9E3779B97F4A7C15L;
    for (LongVector c : cols) {
      h = (h ^ c.getLong(i)) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    return (int) (h ^ (h >>> 32));
  }

  /** The value of row {@code i}'s key (hash {@code h}), or null. */
  @SuppressWarnings("unchecked")
  V get(LongVector[] cols, int i, int h) {
    int mask = values.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      Object v = values[s];
      if (v == null) {
        return null;
      }
      if (matches(s, cols, i)) {
        return (V) v;
      }
    }
  }

  /** Maps row {@code i}'s key (hash {@code h}) to {@code value}. */
  void put(LongVector[] cols, int i, int h, V value) {
    if (2 * (size + 1) > values.length) {
      grow();
    }
    int mask = values.length - 1;
    int s = h & mask;
    while (values[s] != null && !matches(s, cols, i)) {
      s = (s + 1) & mask;
    }
    if (values[s] == null) {
      size++;
    }
    values[s] = value;
    for (int k = 0; k < width; k++) {
      keys[s * width + k] = cols[k].getLong(i);
    }
  }

  private boolean matches(int slot, LongVector[] cols, int i) {
    for (int k = 0; k < width; k++) {
      if (keys[slot * width + k] != cols[k].getLong(i)) {
        return false;
      }
    }
    return true;
  }

  /** Forgets every key; shrinks a table that grew far beyond its recent use. */
  void clear() {
    if (values.length > 1024 && size < values.length / 32) {
      keys = new long[values.length / 4 * width];
      values = new Object[values.length / 4];
    } else {
      Arrays.fill(values, null);
    }
    size = 0;
  }

  int size() {
    return size;
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldValues.length * 2];
    int mask = values.length - 1;
    long[] probe = new long[width];
    for (int s = 0; s < oldValues.length; s++) {
      if (oldValues[s] == null) {
        continue;
      }
      System.arraycopy(oldKeys, s * width, probe, 0, width);
      int t = hashOf(probe) & mask;
      while (values[t] != null) {
        t = (t + 1) & mask;
      }
      values[t] = oldValues[s];
      System.arraycopy(probe, 0, keys, t * width, width);
    }
  }

  /** {@link #hash} of a key given as raw values. */
  private static int hashOf(long[] raw) {
    long h = 0x9E3779B97F4A7C15L;
    for (long r : raw) {
      h = (h ^ r) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    return (int) (h ^ (h >>> 32));
  }
}
