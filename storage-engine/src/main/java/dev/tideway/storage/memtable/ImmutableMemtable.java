package dev.tideway.storage.memtable;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.ArrayEntryIterator;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A sealed memtable in the shared buffer: one table, one (sub-)epoch, entries sorted by key with at
 * most one entry per key, and the writers' live-row delta. Immutable.
 *
 * <p>A frozen {@link Memtable} hands over its key index too, so gets need no binary search. The
 * entries are sorted when the writer freezes the memtable, on the writer's thread: the node's
 * single sync thread, which writes every sealed memtable to an SST, must not also sort them all.
 */
public final class ImmutableMemtable {
  private final int tableId;
  private final long epoch;
  private final long liveDelta;
  private final long bytes;

  /** Gets by key when built from a memtable, else null (binary search). */
  private final KeyIndex index;

  private final Entry[] sorted;

  /** A batch of {@code entries} already in key order with at most one entry per key. */
  public ImmutableMemtable(
      int tableId, long epoch, List<Entry> entries, long liveDelta, long bytes) {
    this(tableId, epoch, null, entries.toArray(new Entry[0]), liveDelta, bytes);
  }

  private ImmutableMemtable(
      int tableId, long epoch, KeyIndex index, Entry[] sorted, long liveDelta, long bytes) {
    this.tableId = tableId;
    this.epoch = epoch;
    this.index = index;
    this.sorted = sorted;
    this.liveDelta = liveDelta;
    this.bytes = bytes;
  }

  /** The current entries of a frozen memtable's {@code index}, sorted now (see the class doc). */
  static ImmutableMemtable of(int tableId, long epoch, KeyIndex index, long liveDelta, long bytes) {
    Entry[] sorted = KeySort.sort(index.values());
    return new ImmutableMemtable(tableId, epoch, index, sorted, liveDelta, bytes);
  }

  public int tableId() {
    return tableId;
  }

  public long epoch() {
    return epoch;
  }

  public long liveDelta() {
    return liveDelta;
  }

  public long bytes() {
    return bytes;
  }

  /** The number of entries. */
  public int size() {
    return sorted.length;
  }

  /** The entries in key order. */
  public List<Entry> entries() {
    return Collections.unmodifiableList(Arrays.asList(sorted));
  }

  public EntryIterator iterator(KeyRange range) {
    int from = range.start() == null ? 0 : lowerBound(sorted, range.start());
    int to = range.end() == null ? sorted.length : lowerBound(sorted, range.end());
    return new ArrayEntryIterator(sorted, from, Math.max(from, to));
  }

  public Entry get(byte[] key) {
    if (index != null) {
      return index.get(key);
    }
    int i = lowerBound(sorted, key);
    return i < sorted.length && Keys.compare(sorted[i].key(), key) == 0 ? sorted[i] : null;
  }

  private static int lowerBound(Entry[] entries, byte[] key) {
    int lo = 0;
    int hi = entries.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Keys.compare(entries[mid].key(), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
