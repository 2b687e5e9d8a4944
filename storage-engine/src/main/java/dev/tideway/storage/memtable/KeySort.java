package dev.tideway.storage.memtable;

import dev.tideway.storage.iterator.Entry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * Sorts memtable entries by key with few cache misses, 16 key bytes at a time. Each entry becomes a
 * sort record of two unsigned longs (the next 16 key bytes, zero-padded) and its index, kept as
 * three parallel arrays that a bottom-up merge sort moves together, so every pass reads and writes
 * memory sequentially. Records equal in both longs form runs; each run is sorted again by its next
 * 16 bytes, and so on: a run of keys sharing a long prefix (a join key of few values, a window)
 * costs one more local sort, not a comparison of whole keys for every pair. The first 16 bytes are
 * those after the table id, which every key of a memtable shares.
 *
 * <p>A comparator over {@code Entry} objects chased two objects per side per comparison, all over
 * the heap; a sort by one 8-byte prefix fell back to whole keys whenever it tied (a vnode plus the
 * high bytes of a small BIGINT: most keys).
 *
 * <p>Keys must be distinct and of one table (a memtable holds one entry per key). Stateless.
 */
final class KeySort {
  /** Runs of this many records are insertion-sorted before merging. */
  private static final int RUN = 24;

  /** Key bytes before the first compared byte: the table id. */
  private static final int FIRST = 4;

  /** Eight key bytes as one big-endian long: a single load instead of eight byte loads. */
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private KeySort() {}

  /** The entries sorted by key (a new array). */
  static Entry[] sort(Entry[] entries) {
    Records r = new Records(entries);
    r.sort(0, entries.length, FIRST);
    Entry[] out = new Entry[entries.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = entries[r.ix[i]];
    }
    return out;
  }

  /**
   * The sort records: {@code a}/{@code b}/{@code ix} is the order, {@code a2}/{@code b2}/{@code
   * ix2} the merge target; {@code keys} the entries' keys.
   */
  private static final class Records {
    final byte[][] keys;
    long[] a;
    long[] b;
    int[] ix;
    long[] a2;
    long[] b2;
    int[] ix2;

    Records(Entry[] entries) {
      int n = entries.length;
      keys = new byte[n][];
      a = new long[n];
      b = new long[n];
      ix = new int[n];
      a2 = new long[n];
      b2 = new long[n];
      ix2 = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = entries[i].key();
        ix[i] = i;
      }
    }

    /**
     * Sorts {@code [lo, hi)}, whose keys all agree on the bytes before {@code offset}; the runs
     * still tied are sorted by their next bytes from a work list (no recursion: keys sharing a long
     * prefix would otherwise nest a call per 16 bytes).
     */
    void sort(int lo, int hi, int offset) {
      ArrayDeque<int[]> todo = new ArrayDeque<>();
      todo.push(new int[] {lo, hi, offset});
      while (!todo.isEmpty()) {
        int[] t = todo.pop();
        sortOnce(t[0], t[1], t[2], todo);
      }
    }

    private void sortOnce(int lo, int hi, int offset, ArrayDeque<int[]> todo) {
      int longest = 0;
      for (int i = lo; i < hi; i++) {
        byte[] k = keys[ix[i]];
        a[i] = word(k, offset);
        b[i] = word(k, offset + 8);
        longest = Math.max(longest, k.length);
      }
      mergeSort(lo, hi);
      for (int s = lo; s < hi; ) {
        int e = s + 1;
        while (e < hi && a[e] == a[s] && b[e] == b[s]) {
          e++;
        }
        if (e - s > 1) {
          if (longest <= offset + 16) {
            byLength(s, e); // equal up to the padding: distinct keys, so a shorter one is a prefix
          } else {
            todo.push(new int[] {s, e, offset + 16});
          }
        }
        s = e;
      }
    }

    /** Orders {@code [lo, hi)} by key length (keys equal but for zero padding). */
    private void byLength(int lo, int hi) {
      for (int i = lo + 1; i < hi; i++) {
        int ki = ix[i];
        int j = i - 1;
        while (j >= lo && keys[ix[j]].length > keys[ki].length) {
          ix[j + 1] = ix[j];
          j--;
        }
        ix[j + 1] = ki;
      }
    }

    /**
     * A stable sort of {@code [lo, hi)} by {@code (a, b)}; the result is left in {@code a/b/ix}.
     */
    private void mergeSort(int lo, int hi) {
      for (int s = lo; s < hi; s += RUN) {
        insertionSort(s, Math.min(s + RUN, hi));
      }
      boolean inTarget = false;
      for (int width = RUN; width < hi - lo; width *= 2) {
        for (int s = lo; s < hi; s += 2 * width) {
          merge(s, Math.min(s + width, hi), Math.min(s + 2 * width, hi));
        }
        swap();
        inTarget = !inTarget;
      }
      if (inTarget) {
        // the sorted range sits in the arrays that are now a/b/ix, but the rest of the records
        // (other ranges) sit in the others: copy the range back and restore the roles
        System.arraycopy(a, lo, a2, lo, hi - lo);
        System.arraycopy(b, lo, b2, lo, hi - lo);
        System.arraycopy(ix, lo, ix2, lo, hi - lo);
        swap();
      }
    }

    private void insertionSort(int lo, int hi) {
      for (int i = lo + 1; i < hi; i++) {
        long ka = a[i];
        long kb = b[i];
        int ki = ix[i];
        int j = i - 1;
        while (j >= lo && greater(a[j], b[j], ka, kb)) {
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
    private void merge(int lo, int mid, int hi) {
      int i = lo;
      int j = mid;
      int k = lo;
      if (mid < hi && greater(a[mid - 1], b[mid - 1], a[mid], b[mid])) {
        while (i < mid && j < hi) {
          if (!greater(a[i], b[i], a[j], b[j])) {
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

    private void swap() {
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

    private static boolean greater(long pa, long pb, long qa, long qb) {
      return pa != qa ? Long.compareUnsigned(pa, qa) > 0 : Long.compareUnsigned(pb, qb) > 0;
    }
  }

  /**
   * Key bytes {@code from .. from+7} (zero-padded past the end) as an unsigned long: where two
   * keys' words differ, and their earlier words agree, their unsigned order is the keys' order (a
   * zero-padded shorter key orders before every key it is a proper prefix of, as unsigned byte
   * order wants; where the padding ties with real zero bytes, the later words or the lengths
   * decide).
   */
  static long word(byte[] key, int from) {
    if (from + 8 <= key.length) {
      return (long) BIG_ENDIAN_LONG.get(key, from);
    }
    long p = 0;
    for (int i = from; i < from + 8; i++) {
      p = (p << 8) | (i < key.length ? key[i] & 0xFF : 0);
    }
    return p;
  }
}
