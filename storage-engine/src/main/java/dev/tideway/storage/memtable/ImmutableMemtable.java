package dev.tideway.storage.memtable;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.ArrayEntryIterator;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A sealed memtable in the shared buffer: one table, one (sub-)epoch, at most one entry per key,
 * and the writers' live-row delta. Immutable once built; safe for any number of threads.
 *
 * <p>A frozen {@link Memtable} hands over its key index, which answers gets, and is sorted
 * <em>lazily</em>, exactly once: by the shared buffer's upload pool as soon as the memtable is
 * handed over ({@link #sort}), or by the first reader that needs key order (a sync, a spill, a
 * range read), whichever comes first. The writer that seals it (an actor at its barrier) never
 * sorts: in Nexmark q7 that sort was a fifth of the query actor's time. Gets never wait for the
 * sort.
 *
 * <p>Concurrency: {@link #sortTask} is a {@link FutureTask}: the first thread to run it sorts; a
 * thread that arrives meanwhile waits for that result instead of sorting again; later callers read
 * the stored result. The index is never written after the freeze; it is published to other threads
 * through the shared buffer (its lock and volatile item list, or the pool's queue).
 */
public final class ImmutableMemtable {
  private final int tableId;
  private final long epoch;
  private final long liveDelta;
  private final long bytes;
  private final int size;

  /** Gets by key when built from a memtable, else null (binary search in the sorted entries). */
  private final KeyIndex index;

  /** Sorts the index's entries once; its result is the entries in key order. */
  private final FutureTask<Entry[]> sortTask;

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
    this.size = index != null ? index.size() : sorted.length;
    this.sortTask = new FutureTask<>(() -> sorted != null ? sorted : KeySort.sort(index.values()));
    if (sorted != null) {
      sortTask.run();
    }
    this.liveDelta = liveDelta;
    this.bytes = bytes;
  }

  /** A frozen memtable's {@code index}; its entries are sorted later (see the class doc). */
  static ImmutableMemtable of(int tableId, long epoch, KeyIndex index, long liveDelta, long bytes) {
    return new ImmutableMemtable(tableId, epoch, index, null, liveDelta, bytes);
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
    return size;
  }

  /** Sorts the entries now unless some thread already did or is doing it. Any thread. */
  public void sort() {
    sortTask.run();
  }

  /** Whether the entries are sorted already (a test seam). */
  boolean isSorted() {
    return sortTask.isDone();
  }

  /** The entries in key order; sorts them first, or waits for the thread sorting them. */
  public List<Entry> entries() {
    return Collections.unmodifiableList(Arrays.asList(sorted()));
  }

  /**
   * The entries in {@code range} in key order; sorts first if no thread did (see the class doc).
   */
  public EntryIterator iterator(KeyRange range) {
    Entry[] entries = sorted();
    int from = range.start() == null ? 0 : lowerBound(entries, range.start());
    int to = range.end() == null ? entries.length : lowerBound(entries, range.end());
    return new ArrayEntryIterator(entries, from, Math.max(from, to));
  }

  /** The entry of {@code key}, or null. Never waits for the sort when built from a memtable. */
  public Entry get(byte[] key) {
    if (index != null) {
      return index.get(key);
    }
    Entry[] entries = sorted();
    int i = lowerBound(entries, key);
    return i < entries.length && Keys.compare(entries[i].key(), key) == 0 ? entries[i] : null;
  }

  private Entry[] sorted() {
    sortTask.run(); // a no-op when done or running elsewhere; then get() waits for that thread
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return sortTask.get();
        } catch (InterruptedException e) {
          interrupted = true; // the sort is bounded work: wait for it, keep the interrupt
        } catch (ExecutionException e) {
          throw new IllegalStateException(
              "sort of table " + tableId + "'s sealed memtable failed", e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
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
