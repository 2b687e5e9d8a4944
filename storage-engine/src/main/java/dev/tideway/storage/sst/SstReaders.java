package dev.tideway.storage.sst;

import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.objectstore.ObjectStore;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open SST readers of a node, one per SST, opened (and verified) on first use and kept until
 * the SST is vacuumed. Thread-safe.
 */
public final class SstReaders implements AutoCloseable {
  private final ObjectStore store;
  private final BlockCache cache;
  private final boolean verifyFileChecksum;
  private final ConcurrentHashMap<Long, SstReader> readers = new ConcurrentHashMap<>();

  public SstReaders(ObjectStore store, BlockCache cache, boolean verifyFileChecksum) {
    this.store = store;
    this.cache = cache;
    this.verifyFileChecksum = verifyFileChecksum;
  }

  public SstReader get(SstInfo info) {
    SstReader r = readers.get(info.id());
    if (r != null) {
      return r;
    }
    return readers.computeIfAbsent(
        info.id(), id -> SstReader.open(store, info, cache, verifyFileChecksum));
  }

  public BlockCache cache() {
    return cache;
  }

  /** Closes the reader of a deleted SST and drops its cached blocks. */
  public void evict(long id) {
    SstReader r = readers.remove(id);
    if (r != null) {
      try {
        r.close();
      } catch (IOException ignored) {
        // The file is gone or going; nothing to recover.
      }
    }
    cache.invalidate(id);
  }

  public int openCount() {
    return readers.size();
  }

  @Override
  public void close() {
    readers.keySet().forEach(this::evict);
  }
}
