package dev.tideway.storage.iterator;

import java.util.List;

/** An {@link EntryIterator} over a list already in storage order (tests, small batches). */
public final class ListEntryIterator implements EntryIterator {
  private final List<Entry> entries;
  private int i = -1;

  public ListEntryIterator(List<Entry> entries) {
    this.entries = entries;
  }

  @Override
  public boolean next() {
    return ++i < entries.size();
  }

  private Entry cur() {
    return entries.get(i);
  }

  @Override
  public byte[] key() {
    return cur().key();
  }

  @Override
  public long epoch() {
    return cur().epoch();
  }

  @Override
  public boolean isDelete() {
    return cur().delete();
  }

  @Override
  public byte[] value() {
    return cur().value();
  }
}
