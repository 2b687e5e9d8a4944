package dev.tideway.storage.sst;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The decoded-block LRU shared by every SST reader of a node, bounded by {@link Block#heapBytes()}.
 * Thread-safe: one lock guards the LRU map (held only for map operations, never during I/O; two
 * threads missing the same block both load it, and the second insert wins). Counts hits and misses
 * for the cache hit ratio metric.
 */
public final class BlockCache {
  /**
   * A block of an SST. The hash mixes both fields: a record's default hash ({@code 31 * sst +
   * block}) gives SST s's block b the hash of SST s + 1's block b - 31, and SSTs hold hundreds of
   * 256-row pages, so with tens of SSTs most cached blocks shared a bucket with a dozen others and
   * every lookup walked the chain.
   */
  private record Key(long sst, int block) {
    @Override
    public int hashCode() {
      return hash(sst, block);
    }
  }

  /** The hash of block {@code block} of SST {@code sst} (a 64-bit finalizer over both). */
  static int hash(long sst, int block) {
    long h = sst * 0x9E3779B97F4A7C15L + block;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 31));
  }

  private final long capacityBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<Key, Block> lru = new LinkedHashMap<>(1024, 0.75f, true);
  private long usedBytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  public BlockCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  /** A loader of one block, called outside the cache lock. */
  @FunctionalInterface
  public interface Loader {
    Block load() throws java.io.IOException;
  }

  public Block get(long sst, int block, Loader loader) throws java.io.IOException {
    Key k = new Key(sst, block);
    lock.lock();
    try {
      Block b = lru.get(k);
      if (b != null) {
        hits.increment();
        return b;
      }
    } finally {
      lock.unlock();
    }
    misses.increment();
    Block b = loader.load();
    if (b.heapBytes() <= capacityBytes / 4) {
      put(k, b);
    }
    return b;
  }

  private void put(Key k, Block b) {
    lock.lock();
    try {
      Block old = lru.put(k, b);
      usedBytes += b.heapBytes() - (old == null ? 0 : old.heapBytes());
      Iterator<Map.Entry<Key, Block>> it = lru.entrySet().iterator();
      while (usedBytes > capacityBytes && it.hasNext()) {
        usedBytes -= it.next().getValue().heapBytes();
        it.remove();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Drops every block of an SST (after it is deleted). */
  public void invalidate(long sst) {
    lock.lock();
    try {
      Iterator<Map.Entry<Key, Block>> it = lru.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<Key, Block> e = it.next();
        if (e.getKey().sst() == sst) {
          usedBytes -= e.getValue().heapBytes();
          it.remove();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  public long usedBytes() {
    lock.lock();
    try {
      return usedBytes;
    } finally {
      lock.unlock();
    }
  }
}
