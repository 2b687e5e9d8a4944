package dev.tideway.storage.memtable;

import dev.tideway.storage.iterator.Entry;
import java.util.Arrays;

/**
 * Sorts memtable entries by key with few cache misses. Each entry becomes a sort record of two
 * unsigned longs, key bytes 4..11 and 12..19 after the table id (zero-padded), plus its index; the
 * records are kept as three parallel arrays that a bottom-up merge sort moves together, so every
 * pass reads and writes memory sequentially. Only records equal in both longs compare their packed
 * key bytes. A comparator over {@code Entry} objects chased two objects per side per comparison,
 * all over the heap; a sort of indices by one prefix did the same through the prefix array, and
 * fell back to whole keys whenever the first 8 bytes tied (a vnode plus the high bytes of a small
 * BIGINT: most keys).
 *
 * <p>Keys must be distinct and of one table (a memtable holds one entry per key). Stateless.
 */
final class KeySort {
  /** Runs of this many records are insertion-sorted before merging. */
  private static final int RUN = 24;

  private KeySort() {}

  /** The entries sorted by key (a new array). */
  static Entry[] sort(Entry[] entries) {
    Records r = new Records(entries);
    int n = entries.length;
    for (int lo = 0; lo < n; lo += RUN) {
      r.insertionSort(lo, Math.min(lo + RUN, n));
    }
    for (int width = RUN; width < n; width *= 2) {
      for (int lo = 0; lo < n; lo += 2 * width) {
        r.merge(lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n));
      }
      r.swap();
    }
    Entry[] out = new Entry[n];
    for (int i = 0; i < n; i++) {
      out[i] = entries[r.ix[i]];
    }
    return out;
  }

  /**
   * The sort records: {@code a}/{@code b}/{@code ix} is the current order, {@code a2}/{@code
   * b2}/{@code ix2} the merge target; the packed keys resolve ties.
   */
  private static final class Records {
    long[] a;
    long[] b;
    int[] ix;
    long[] a2;
    long[] b2;
    int[] ix2;
    final byte[] keys;
    final int[] offsets;

    Records(Entry[] entries) {
      int n = entries.length;
      int total = 0;
      for (Entry e : entries) {
        total += e.key().length;
      }
      keys = new byte[total];
      offsets = new int[n + 1];
      a = new long[n];
      b = new long[n];
      ix = new int[n];
      for (int i = 0; i < n; i++) {
        byte[] k = entries[i].key();
        System.arraycopy(k, 0, keys, offsets[i], k.length);
        offsets[i + 1] = offsets[i] + k.length;
        a[i] = word(k, 4);
        b[i] = word(k, 12);
        ix[i] = i;
      }
      a2 = new long[n];
      b2 = new long[n];
      ix2 = new int[n];
    }

    /** Orders {@code [lo, hi)} of the current arrays in place. */
    void insertionSort(int lo, int hi) {
      for (int i = lo + 1; i < hi; i++) {
        long ka = a[i];
        long kb = b[i];
        int ki = ix[i];
        int j = i - 1;
        while (j >= lo && compare(a[j], b[j], ix[j], ka, kb, ki) > 0) {
          a[j + 1] = a[j];
          b[j + 1] = b[j];
          ix[j + 1] = ix[j];
          j--;
        }
        a[j + 1] = ka;
        b[j + 1] = kb;
        ix[j + 1] = ki;
      }
    }

    /** Merges the sorted runs {@code [lo, mid)} and {@code [mid, hi)} into the target arrays. */
    void merge(int lo, int mid, int hi) {
      int i = lo;
      int j = mid;
      int k = lo;
      if (mid < hi && compare(a[mid - 1], b[mid - 1], ix[mid - 1], a[mid], b[mid], ix[mid]) > 0) {
        while (i < mid && j < hi) {
          if (compare(a[i], b[i], ix[i], a[j], b[j], ix[j]) <= 0) {
            a2[k] = a[i];
            b2[k] = b[i];
            ix2[k++] = ix[i++];
          } else {
            a2[k] = a[j];
            b2[k] = b[j];
            ix2[k++] = ix[j++];
          }
        }
      }
      // the rest of either run (or both, already in order) is copied as it stands
      System.arraycopy(a, i, a2, k, mid - i);
      System.arraycopy(b, i, b2, k, mid - i);
      System.arraycopy(ix, i, ix2, k, mid - i);
      k += mid - i;
      System.arraycopy(a, j, a2, k, hi - j);
      System.arraycopy(b, j, b2, k, hi - j);
      System.arraycopy(ix, j, ix2, k, hi - j);
    }

    /** Makes the merge target the current order. */
    void swap() {
      long[] t = a;
      a = a2;
      a2 = t;
      t = b;
      b = b2;
      b2 = t;
      int[] u = ix;
      ix = ix2;
      ix2 = u;
    }

    private int compare(long pa, long pb, int x, long qa, long qb, int y) {
      if (pa != qa) {
        return Long.compareUnsigned(pa, qa);
      }
      if (pb != qb) {
        return Long.compareUnsigned(pb, qb);
      }
      return Arrays.compareUnsigned(
          keys, offsets[x], offsets[x + 1], keys, offsets[y], offsets[y + 1]);
    }
  }

  /**
   * Key bytes {@code from .. from+7} (zero-padded past the end) as an unsigned long: where two
   * keys' words differ, and their earlier words agree, their unsigned order is the keys' order (a
   * zero-padded shorter key orders before every key it is a proper prefix of, as unsigned byte
   * order wants; where the padding ties with real zero bytes the packed keys decide).
   */
  static long word(byte[] key, int from) {
    long p = 0;
    for (int i = from; i < from + 8; i++) {
      p = (p << 8) | (i < key.length ? key[i] & 0xFF : 0);
    }
    return p;
  }
}
