package dev.tideway.storage.iterator;

import java.util.List;

/**
 * An {@link EntryIterator} over a slice of an array already in storage order (a sealed memtable's
 * sorted entries, a memtable's range snapshot). {@link #next} loads the entry's fields once, so the
 * four accessors are field reads: this iterator feeds every sync's merge, and the list it replaced
 * paid an interface call and a bounds check per accessor. Confined to one thread; never writes the
 * array.
 */
public final class ArrayEntryIterator extends CurrentEntryIterator {
  private final Entry[] entries;
  private final int end;
  private int i;

  /** Iterates {@code entries[from, to)}. */
  public ArrayEntryIterator(Entry[] entries, int from, int to) {
    this.entries = entries;
    this.i = from;
    this.end = to;
  }

  public ArrayEntryIterator(List<Entry> entries) {
    this(entries.toArray(new Entry[0]), 0, entries.size());
  }

  @Override
  public boolean next() {
    if (i >= end) {
      return false;
    }
    Entry e = entries[i++];
    key = e.key();
    epoch = e.epoch();
    delete = e.delete();
    value = e.value();
    return true;
  }
}
