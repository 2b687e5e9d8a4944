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
 * <p>Layout, chosen for writes: every state write of every executor lands here, and a sorted tree
 * paid a dozen or more cache-missing key comparisons per write.
 *
 * <ul>
 *   <li>{@link KeyIndex}: key → latest entry, an open-addressing hash table; answers {@link #get}
 *       and tells which entry of a key is current;
 *   <li>a buffer of the last writes, unsorted, at most {@link #BUFFER_ENTRIES};
 *   <li>{@link Run}s: sorted runs of older writes, oldest first, each with at most one entry per
 *       key. A full buffer is sorted into a new run of level 0 and runs of equal level are merged
 *       into one of the next level, like a binary counter (the newer run's entry wins a key); so a
 *       write takes part in O(log n) sequential merges, and there are O(log n) runs. Each run also
 *       packs its keys into one byte array, so a merge compares contiguous bytes instead of chasing
 *       two objects per comparison.
 * </ul>
 *
 * <p>Invariants: every entry in the buffer or a run was written; the index holds exactly one entry
 * per written key, the last one; an entry is current iff the index maps its key to it (identity). A
 * range read collects the current entries of every run (by binary search) and of the buffer that
 * fall in the range, and sorts them; {@link #freeze} merges everything into one sorted run.
 */
public final class Memtable {
  /** Per-entry overhead estimate (entry record, array headers, index slot, run slot). */
  static final int ENTRY_OVERHEAD = 96;

  /** Writes kept unsorted before they are sorted into a run. */
  static final int BUFFER_ENTRIES = 512;

  private static final Comparator<Entry> BY_KEY = (a, b) -> Keys.compare(a.key(), b.key());

  private final int tableId;
  private final KeyIndex index = new KeyIndex();
  private final List<Run> runs = new ArrayList<>();
  private final Entry[] buffer = new Entry[BUFFER_ENTRIES];
  private int buffered;
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
    buffer[buffered++] = e;
    if (buffered == BUFFER_ENTRIES) {
      flushBuffer();
    }
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
    for (int i = 0; i < buffered; i++) {
      Entry e = buffer[i];
      if (range.contains(e.key()) && index.get(e.key()) == e) {
        out.add(e);
      }
    }
    out.sort(BY_KEY);
    return out;
  }

  /** Freezes the contents into an immutable, sorted batch. */
  public ImmutableMemtable freeze(long epoch) {
    flushBuffer();
    while (runs.size() > 1) {
      mergeLastTwo();
    }
    List<Entry> all =
        runs.isEmpty()
            ? List.of()
            : Arrays.asList(runs.get(0).entries).subList(0, runs.get(0).size);
    return new ImmutableMemtable(tableId, epoch, all, liveDelta, bytes);
  }

  /** Sorts the buffer into a new run (the last write of a key wins), then merges runs. */
  private void flushBuffer() {
    if (buffered == 0) {
      return;
    }
    Entry[] sorted = Arrays.copyOf(buffer, buffered);
    Arrays.fill(buffer, 0, buffered, null);
    buffered = 0;
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
    runs.add(new Run(sorted, keys, offsets, n, 0));
    while (runs.size() >= 2 && runs.get(runs.size() - 2).level == runs.get(runs.size() - 1).level) {
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
    runs.add(new Run(out, keys, offsets, n, Math.max(a.level, b.level) + 1));
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
  private record Run(Entry[] entries, byte[] keys, int[] keyOffsets, int size, int level) {
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

  /**
   * Key bytes → latest entry: open addressing with linear probing, at most half full, no removal (a
   * delete is a tombstone entry).
   */
  private static final class KeyIndex {
    private Entry[] slots = new Entry[64];
    private int[] hashes = new int[64];
    private int size;

    int size() {
      return size;
    }

    Entry get(byte[] key) {
      int h = hash(key);
      int mask = slots.length - 1;
      for (int i = h & mask; ; i = (i + 1) & mask) {
        Entry e = slots[i];
        if (e == null) {
          return null;
        }
        if (hashes[i] == h && Arrays.equals(e.key(), key)) {
          return e;
        }
      }
    }

    /** Maps the entry's key to it; returns the entry it replaced, or null. */
    Entry put(Entry entry) {
      if (2 * (size + 1) > slots.length) {
        grow();
      }
      int h = hash(entry.key());
      int mask = slots.length - 1;
      for (int i = h & mask; ; i = (i + 1) & mask) {
        Entry e = slots[i];
        if (e == null) {
          slots[i] = entry;
          hashes[i] = h;
          size++;
          return null;
        }
        if (hashes[i] == h && Arrays.equals(e.key(), entry.key())) {
          slots[i] = entry;
          return e;
        }
      }
    }

    private void grow() {
      Entry[] oldSlots = slots;
      int[] oldHashes = hashes;
      slots = new Entry[oldSlots.length * 2];
      hashes = new int[oldSlots.length * 2];
      int mask = slots.length - 1;
      for (int k = 0; k < oldSlots.length; k++) {
        if (oldSlots[k] != null) {
          int i = oldHashes[k] & mask;
          while (slots[i] != null) {
            i = (i + 1) & mask;
          }
          slots[i] = oldSlots[k];
          hashes[i] = oldHashes[k];
        }
      }
    }

    /** Arrays.hashCode spread by a multiplication, so linear probing sees well-mixed low bits. */
    private static int hash(byte[] key) {
      int h = Arrays.hashCode(key) * 0x9E3779B9;
      return h ^ (h >>> 16);
    }
  }
}
