package dev.tideway.storage.memtable;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The writes of one table in the current epoch of one {@link LocalStore}: the last op per key (a
 * put or a tombstone) and the writer's live-row delta. Confined to the writer's thread.
 *
 * <p>Layout, chosen for writes (every state write of every executor lands here, and a sorted tree
 * paid a dozen or more cache-missing key comparisons per write):
 *
 * <ul>
 *   <li>{@link KeyIndex}: key → latest entry, an open-addressing hash table; answers {@link #get}
 *       and tells which entry of a key is current. A write is one index put and one append;
 *   <li>a tail: the writes since the last range read, unsorted;
 *   <li>{@link Run}s, built only for range reads: a range read sorts the tail into a run and merges
 *       runs of similar size like a binary counter (the newer run's entry wins a key), so
 *       interleaved writes and range reads cost O(log n) sequential merges per write, and there are
 *       O(log n) runs. A run packs its keys into one byte array, so merges and searches compare
 *       contiguous bytes instead of chasing two objects per comparison.
 * </ul>
 *
 * <p>{@link #freeze} hands the index to an {@link ImmutableMemtable}, which sorts the current
 * entries once, later and off the writer's thread ({@link KeySort}: packed keys, so the sort seldom
 * leaves the cache).
 *
 * <p>Invariants: every entry in the tail or a run was written; the index holds exactly one entry
 * per written key, the last one; an entry is current iff the index maps its key to it (identity). A
 * range read collects the current entries in the range of every run (by binary search) and sorts
 * them.
 */
public final class Memtable {
  /** Per-entry overhead estimate (entry record, array headers, index slot, tail slot). */
  static final int ENTRY_OVERHEAD = 96;

  static final Comparator<Entry> BY_KEY = (a, b) -> Keys.compare(a.key(), b.key());

  private final int tableId;
  private final KeyIndex index = new KeyIndex();
  private final List<Run> runs = new ArrayList<>();
  private Entry[] tail = new Entry[64];
  private int tailSize;
  private long bytes;
  private long liveDelta;

  public Memtable(int tableId) {
    this.tableId = tableId;
  }

  /** Records a put or a tombstone at {@code epoch}; {@code liveDelta} is the writer's +1/0/-1. */
  public void write(byte[] key, long epoch, boolean delete, byte[] value, int liveDelta) {
    if (Keys.tableId(key) != tableId) {
      Checks.checkArgument(
          false, "key of table %s written to the memtable of table %s", Keys.tableId(key), tableId);
    }
    Entry e = new Entry(key, epoch, delete, delete ? Entry.EMPTY : value);
    Entry old = index.put(e);
    bytes +=
        e.key().length
            + e.value().length
            + (old == null ? ENTRY_OVERHEAD : -old.value().length - old.key().length);
    this.liveDelta += liveDelta;
    if (tailSize == tail.length) {
      tail = Arrays.copyOf(tail, tailSize * 2);
    }
    tail[tailSize++] = e;
  }

  public Entry get(byte[] key) {
    return index.get(key);
  }

  public boolean isEmpty() {
    return index.size() == 0 && liveDelta == 0;
  }

  public long bytes() {
    return bytes;
  }

  public long liveDelta() {
    return liveDelta;
  }

  /** The entries in {@code range}, in key order (a snapshot). */
  public List<Entry> range(KeyRange range) {
    flushTail();
    List<Entry> out = new ArrayList<>();
    for (Run run : runs) {
      int from = range.start() == null ? 0 : run.lowerBound(range.start());
      int to = range.end() == null ? run.size : run.lowerBound(range.end());
      for (int i = from; i < to; i++) {
        if (index.get(run.entries[i].key()) == run.entries[i]) {
          out.add(run.entries[i]);
        }
      }
    }
    out.sort(BY_KEY);
    return out;
  }

  /** Freezes the contents into an immutable batch (sorted later, not on this thread). */
  public ImmutableMemtable freeze(long epoch) {
    return ImmutableMemtable.of(tableId, epoch, index, liveDelta, bytes);
  }

  /** Sorts the tail into a new run (the last write of a key wins), then merges runs. */
  private void flushTail() {
    if (tailSize == 0) {
      return;
    }
    Entry[] sorted = Arrays.copyOf(tail, tailSize);
    tail = new Entry[64];
    tailSize = 0;
    Arrays.sort(sorted, BY_KEY); // stable: writes of one key stay in write order
    int n = 0;
    int keyBytes = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i + 1 < sorted.length && Keys.compare(sorted[i].key(), sorted[i + 1].key()) == 0) {
        continue; // a later write of the same key follows
      }
      keyBytes += sorted[i].key().length;
      sorted[n++] = sorted[i];
    }
    byte[] keys = new byte[keyBytes];
    int[] offsets = new int[n + 1];
    for (int i = 0; i < n; i++) {
      byte[] k = sorted[i].key();
      System.arraycopy(k, 0, keys, offsets[i], k.length);
      offsets[i + 1] = offsets[i] + k.length;
    }
    runs.add(new Run(sorted, keys, offsets, n));
    while (runs.size() >= 2
        && runs.get(runs.size() - 2).size <= 2 * runs.get(runs.size() - 1).size) {
      mergeLastTwo();
    }
  }

  /** Merges the two newest runs; on a key in both, the newer run's entry wins. */
  private void mergeLastTwo() {
    Run b = runs.remove(runs.size() - 1);
    Run a = runs.remove(runs.size() - 1);
    Entry[] out = new Entry[a.size + b.size];
    byte[] keys = new byte[a.keyOffsets[a.size] + b.keyOffsets[b.size]];
    int[] offsets = new int[a.size + b.size + 1];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.size && j < b.size) {
      int c = a.compare(i, b, j);
      Run from = c < 0 ? a : b;
      int k = c < 0 ? i++ : j++;
      if (c == 0) {
        i++; // the newer run's entry of the key wins
      }
      n = append(from, k, out, keys, offsets, n);
    }
    for (; i < a.size; i++) {
      n = append(a, i, out, keys, offsets, n);
    }
    for (; j < b.size; j++) {
      n = append(b, j, out, keys, offsets, n);
    }
    runs.add(new Run(out, keys, offsets, n));
  }

  private static int append(Run from, int k, Entry[] out, byte[] keys, int[] offsets, int n) {
    int len = from.keyOffsets[k + 1] - from.keyOffsets[k];
    System.arraycopy(from.keys, from.keyOffsets[k], keys, offsets[n], len);
    offsets[n + 1] = offsets[n] + len;
    out[n] = from.entries[k];
    return n + 1;
  }

  /**
   * Sorted, one entry per key; the keys are also packed in {@code keys} ({@code entries[i]}'s at
   * {@code [keyOffsets[i], keyOffsets[i + 1])}), so merges and searches compare contiguous bytes.
   */
  private record Run(Entry[] entries, byte[] keys, int[] keyOffsets, int size) {
    int compare(int i, Run other, int j) {
      return Arrays.compareUnsigned(
          keys,
          keyOffsets[i],
          keyOffsets[i + 1],
          other.keys,
          other.keyOffsets[j],
          other.keyOffsets[j + 1]);
    }

    int lowerBound(byte[] key) {
      int lo = 0;
      int hi = size;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Arrays.compareUnsigned(keys, keyOffsets[mid], keyOffsets[mid + 1], key, 0, key.length)
            < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
