package dev.tideway.storage.memtable;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.ListEntryIterator;
import java.util.List;

/**
 * A sealed memtable in the shared buffer: one table, one (sub-)epoch, entries sorted by key with at
 * most one entry per key, and the writers' live-row delta. Immutable.
 */
public record ImmutableMemtable(
    int tableId, long epoch, List<Entry> entries, long liveDelta, long bytes) {
  public ImmutableMemtable {
    entries = List.copyOf(entries);
  }

  public EntryIterator iterator(KeyRange range) {
    if (range.start() == null && range.end() == null) {
      return new ListEntryIterator(entries);
    }
    int from = range.start() == null ? 0 : lowerBound(range.start());
    int to = range.end() == null ? entries.size() : lowerBound(range.end());
    return new ListEntryIterator(entries.subList(from, Math.max(from, to)));
  }

  public Entry get(byte[] key) {
    int i = lowerBound(key);
    return i < entries.size() && Keys.compare(entries.get(i).key(), key) == 0
        ? entries.get(i)
        : null;
  }

  private int lowerBound(byte[] key) {
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
