package dev.tideway.storage.sst;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Allocates SST ids and tells vacuum which unreferenced ids are safe to delete: every write (spill,
 * sync, compaction) runs inside a {@link Guard}, and an id allocated at or after the start of a
 * running guard may belong to a file still being written or not yet handed to a version.
 * Thread-safe.
 */
public final class SstIds {
  private final AtomicLong next;
  private final ConcurrentHashMap<Long, Long> running = new ConcurrentHashMap<>();
  private final AtomicLong guardIds = new AtomicLong();

  public SstIds(long firstId) {
    this.next = new AtomicLong(firstId);
  }

  public long next() {
    return next.getAndIncrement();
  }

  /** Marks a write in progress until closed. */
  public final class Guard implements AutoCloseable {
    private final long guardId = guardIds.incrementAndGet();

    private Guard() {
      running.put(guardId, next.get());
    }

    @Override
    public void close() {
      running.remove(guardId);
    }
  }

  public Guard begin() {
    return new Guard();
  }

  /** Unreferenced SSTs with ids below this may be deleted. */
  public long safeToDeleteBelow() {
    long n = next.get();
    return running.values().stream().mapToLong(Long::longValue).min().orElse(n);
  }
}
