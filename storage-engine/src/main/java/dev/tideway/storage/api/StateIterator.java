package dev.tideway.storage.api;

/**
 * Live rows of a read, in key order: call {@link #next()} first. Holds a pinned version until
 * {@link #close()}: always close it (try-with-resources). Confined to one thread.
 */
public interface StateIterator extends AutoCloseable {
  boolean next();

  /** The full storage key ({@code table_id | vnode | pk}). */
  byte[] key();

  byte[] value();

  @Override
  void close();
}
