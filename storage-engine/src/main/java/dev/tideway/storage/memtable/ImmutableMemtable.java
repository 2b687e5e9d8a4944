package dev.tideway.storage.memtable;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.ListEntryIterator;
import java.util.List;

/**
 * A sealed memtable in the shared buffer: one table, one (sub-)epoch, at most one entry per key,
 * and the writers' live-row delta. Immutable in content.
 *
 * <p>A frozen {@link Memtable} hands over its entries unsorted with its key index: gets use the
 * index, and the first call that needs key order ({@link #entries}, {@link #iterator}: the sync
 * that writes it to an SST, or a range read) sorts them. The sort is a benign race: every thread
 * that finds no sorted list computes the same one and publishes it through a volatile field, so no
 * lock is taken and no reader ever sees a partial list.
 */
public final class ImmutableMemtable {
  private final int tableId;
  private final long epoch;
  private final long liveDelta;
  private final long bytes;

  /** The entries to sort, or null when built sorted. */
  private final Entry[] unsorted;

  /** Gets by key when built from a memtable, else null (binary search). */
  private final KeyIndex index;

  private volatile List<Entry> sorted;

  /** A batch of {@code entries} already in key order with at most one entry per key. */
  public ImmutableMemtable(
      int tableId, long epoch, List<Entry> entries, long liveDelta, long bytes) {
    this(tableId, epoch, null, null, List.copyOf(entries), liveDelta, bytes);
  }

  private ImmutableMemtable(
      int tableId,
      long epoch,
      Entry[] unsorted,
      KeyIndex index,
      List<Entry> sorted,
      long liveDelta,
      long bytes) {
    this.tableId = tableId;
    this.epoch = epoch;
    this.unsorted = unsorted;
    this.index = index;
    this.sorted = sorted;
    this.liveDelta = liveDelta;
    this.bytes = bytes;
  }

  /** The current entries of a frozen memtable's {@code index}, sorted later. */
  static ImmutableMemtable unsorted(
      int tableId, long epoch, KeyIndex index, long liveDelta, long bytes) {
    return new ImmutableMemtable(tableId, epoch, index.values(), index, null, liveDelta, bytes);
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

  /** The number of entries (no sort needed). */
  public int size() {
    return unsorted != null ? unsorted.length : sorted.size();
  }

  /** The entries in key order. */
  public List<Entry> entries() {
    List<Entry> s = sorted;
    if (s == null) {
      s = List.of(KeySort.sort(unsorted));
      sorted = s;
    }
    return s;
  }

  public EntryIterator iterator(KeyRange range) {
    List<Entry> entries = entries();
    if (range.start() == null && range.end() == null) {
      return new ListEntryIterator(entries);
    }
    int from = range.start() == null ? 0 : lowerBound(entries, range.start());
    int to = range.end() == null ? entries.size() : lowerBound(entries, range.end());
    return new ListEntryIterator(entries.subList(from, Math.max(from, to)));
  }

  public Entry get(byte[] key) {
    if (index != null) {
      return index.get(key);
    }
    List<Entry> entries = entries();
    int i = lowerBound(entries, key);
    return i < entries.size() && Keys.compare(entries.get(i).key(), key) == 0
        ? entries.get(i)
        : null;
  }

  private static int lowerBound(List<Entry> entries, byte[] key) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Keys.compare(entries.get(mid).key(), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
