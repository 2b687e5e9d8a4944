package dev.tideway.storage.iterator;

/**
 * An {@link EntryIterator} that keeps its current entry in four fields, set by {@link #next} in the
 * subclass and read through the accessors. Confined to one thread.
 */
public abstract class CurrentEntryIterator implements EntryIterator {
  protected byte[] key;
  protected long epoch;
  protected boolean delete;
  protected byte[] value;

  @Override
  public final byte[] key() {
    return key;
  }

  @Override
  public final long epoch() {
    return epoch;
  }

  @Override
  public final boolean isDelete() {
    return delete;
  }

  @Override
  public final byte[] value() {
    return value;
  }
}
