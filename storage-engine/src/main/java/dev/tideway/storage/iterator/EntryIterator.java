package dev.tideway.storage.iterator;

import java.io.IOException;

/**
 * A cursor over stored entries in storage order: key ascending, then epoch descending (newest
 * version of a key first). Call {@link #next()} before reading the first entry. The arrays returned
 * by the accessors are owned by the caller after the call (implementations never reuse them).
 * Confined to one thread.
 */
public interface EntryIterator extends AutoCloseable {
  /** Moves to the next entry; false when exhausted. */
  boolean next() throws IOException;

  byte[] key();

  long epoch();

  boolean isDelete();

  /** The value; empty for a tombstone. */
  byte[] value();

  @Override
  default void close() {}
}
