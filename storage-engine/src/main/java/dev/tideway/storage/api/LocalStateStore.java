package dev.tideway.storage.api;

/**
 * The write handle of one table for one writer (one actor): a memtable for the current epoch over
 * the node's shared buffer and the committed version. Reads see the writer's own uncommitted
 * writes. Lifecycle: {@link #init(long)} with the first epoch, writes, {@link
 * #sealCurrentEpoch(long)} at every barrier; {@code StateStore.sync} then makes sealed epochs
 * durable. Confined to the writer's thread.
 *
 * <p>The writer declares what each write means, so the engine can keep an exact live-row count:
 * {@link #insert} (+1), {@link #delete} (-1), {@link #update} (0). Inserting a key that exists, or
 * deleting one that does not, is a caller bug that skews {@code liveRowCount}.
 */
public interface LocalStateStore extends AutoCloseable {
  int tableId();

  /** Starts writing at {@code epoch}. */
  void init(long epoch);

  /** The epoch writes currently go to (sub-epoch bits included). */
  long epoch();

  void insert(byte[] key, byte[] value);

  /** Deletes a row; {@code oldValue} may be null when unknown. */
  void delete(byte[] key, byte[] oldValue);

  /** Replaces a row's value; {@code oldValue} may be null when unknown. */
  void update(byte[] key, byte[] oldValue, byte[] newValue);

  /** The current value of {@code key} as this writer sees it, or null. */
  byte[] get(byte[] key);

  /** The live rows of {@code range} (keys of this table) as this writer sees them. */
  StateIterator iter(KeyRange range);

  /** Hands the current epoch's writes to the shared buffer and starts {@code nextEpoch}. */
  void sealCurrentEpoch(long nextEpoch);

  @Override
  void close();
}
