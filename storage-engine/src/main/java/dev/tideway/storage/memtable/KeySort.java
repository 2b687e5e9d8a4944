package dev.tideway.storage.memtable;

import dev.tideway.storage.iterator.Entry;
import java.util.Arrays;

/**
 * Sorts memtable entries by key with few cache misses: the keys are first copied, in the entries'
 * order (which is write order, so mostly sequential in memory), into one byte array, and a merge
 * sort then orders indices by comparing the 8 key bytes after the table id as an unsigned long and,
 * only when those tie, the packed key bytes. A comparator over {@code Entry} objects instead chased
 * two objects per side per comparison, all over the heap.
 *
 * <p>Keys must be distinct and of one table (a memtable holds one entry per key). Stateless.
 */
final class KeySort {
  private KeySort() {}

  /** The entries sorted by key (a new array). */
  static Entry[] sort(Entry[] entries) {
    int n = entries.length;
    int total = 0;
    for (Entry e : entries) {
      total += e.key().length;
    }
    byte[] keys = new byte[total];
    int[] offsets = new int[n + 1];
    long[] prefixes = new long[n];
    for (int i = 0; i < n; i++) {
      byte[] k = entries[i].key();
      System.arraycopy(k, 0, keys, offsets[i], k.length);
      offsets[i + 1] = offsets[i] + k.length;
      prefixes[i] = prefix(k);
    }
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    int[] tmp = new int[n];
    for (int width = 1; width < n; width *= 2) {
      for (int lo = 0; lo < n - width; lo += 2 * width) {
        merge(idx, tmp, lo, lo + width, Math.min(lo + 2 * width, n), keys, offsets, prefixes);
      }
    }
    Entry[] out = new Entry[n];
    for (int i = 0; i < n; i++) {
      out[i] = entries[idx[i]];
    }
    return out;
  }

  private static void merge(
      int[] idx, int[] tmp, int lo, int mid, int hi, byte[] keys, int[] offsets, long[] pre) {
    if (compare(idx[mid - 1], idx[mid], keys, offsets, pre) <= 0) {
      return; // already in order
    }
    System.arraycopy(idx, lo, tmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      if (i < mid && (j >= hi || compare(tmp[i], tmp[j], keys, offsets, pre) <= 0)) {
        idx[k] = tmp[i++];
      } else {
        idx[k] = tmp[j++];
      }
    }
  }

  private static int compare(int a, int b, byte[] keys, int[] offsets, long[] pre) {
    int c = Long.compareUnsigned(pre[a], pre[b]);
    if (c != 0) {
      return c;
    }
    return Arrays.compareUnsigned(
        keys, offsets[a], offsets[a + 1], keys, offsets[b], offsets[b + 1]);
  }

  /**
   * Key bytes 4..11 (after the table id, zero-padded) as an unsigned long: where two keys' prefixes
   * differ, their unsigned order is the keys' order (a zero-padded shorter key orders before every
   * key it is a proper prefix of, as unsigned byte order wants).
   */
  static long prefix(byte[] key) {
    long p = 0;
    for (int i = 4; i < 12; i++) {
      p = (p << 8) | (i < key.length ? key[i] & 0xFF : 0);
    }
    return p;
  }
}
