package dev.tideway.storage.api;

import dev.tideway.common.time.Clock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Tuning of one engine. {@link #defaults()} suits a compute node; tests shrink the memory limits to
 * exercise spills and compaction.
 *
 * @param sharedBufferBytes sealed in-memory bytes before the shared buffer spills to SSTs
 * @param memtableBytes bytes of one writer's current-epoch memtable before it moves to the shared
 *     buffer under the next sub-epoch
 * @param blockCacheBytes the decoded-block cache
 * @param targetFileBytes target size of compaction output SSTs
 * @param l0Trigger L0 SST count from which L0 is compacted (merged within L0 until it is as large
 *     as L1, then into L1: see {@code CompactionPicker})
 * @param levelBaseBytes size of L1 before it compacts into L2 (each deeper level 10x)
 * @param checkpointEvery a version checkpoint every this many deltas
 * @param verifyFileChecksum read each SST whole once at open to check its CRC32C
 * @param autoCompact schedule compaction after commits
 * @param uploadThreads threads that sort sealed memtables and spill them
 * @param compactionThreads threads that rewrite SSTs for compaction
 * @param maxPendingSyncs a writer sealing an epoch waits while more syncs than this are requested
 *     and unfinished (write backpressure, so barrier latency stays near this many syncs plus one);
 *     negative never waits
 */
public record StorageOptions(
    long sharedBufferBytes,
    long memtableBytes,
    long blockCacheBytes,
    long targetFileBytes,
    int l0Trigger,
    long levelBaseBytes,
    int checkpointEvery,
    boolean verifyFileChecksum,
    boolean autoCompact,
    int uploadThreads,
    int compactionThreads,
    int maxPendingSyncs,
    Clock clock,
    PrometheusRegistry registry) {

  public static StorageOptions defaults() {
    return new StorageOptions(
        // small on purpose: sealed data uploads as it accumulates, so a sync writes only the tail
        // (Nexmark q7 at P=2: barrier p99 5.4 s -> 0.4 s with 8/4 MiB against 256/64 MiB)
        8L << 20,
        4L << 20,
        256L << 20,
        64L << 20,
        4,
        256L << 20,
        16,
        true,
        true,
        2,
        1,
        1,
        Clock.system(),
        new PrometheusRegistry());
  }

  public StorageOptions withMemory(long sharedBufferBytes, long memtableBytes) {
    Edit e = new Edit(this);
    e.sharedBufferBytes = sharedBufferBytes;
    e.memtableBytes = memtableBytes;
    return e.done();
  }

  public StorageOptions withCompaction(
      boolean auto, int l0Trigger, long levelBaseBytes, long targetFileBytes) {
    Edit e = new Edit(this);
    e.autoCompact = auto;
    e.l0Trigger = l0Trigger;
    e.levelBaseBytes = levelBaseBytes;
    e.targetFileBytes = targetFileBytes;
    return e.done();
  }

  public StorageOptions withCheckpointEvery(int n) {
    Edit e = new Edit(this);
    e.checkpointEvery = n;
    return e.done();
  }

  public StorageOptions withBlockCache(long bytes, boolean verifyFileChecksum) {
    Edit e = new Edit(this);
    e.blockCacheBytes = bytes;
    e.verifyFileChecksum = verifyFileChecksum;
    return e.done();
  }

  public StorageOptions withMaxPendingSyncs(int n) {
    Edit e = new Edit(this);
    e.maxPendingSyncs = n;
    return e.done();
  }

  public StorageOptions withRegistry(PrometheusRegistry r) {
    Edit e = new Edit(this);
    e.registry = r;
    return e.done();
  }

  /** A mutable copy, so each {@code with...} names only what it changes. */
  private static final class Edit {
    long sharedBufferBytes;
    long memtableBytes;
    long blockCacheBytes;
    long targetFileBytes;
    int l0Trigger;
    long levelBaseBytes;
    int checkpointEvery;
    boolean verifyFileChecksum;
    boolean autoCompact;
    int uploadThreads;
    int compactionThreads;
    int maxPendingSyncs;
    Clock clock;
    PrometheusRegistry registry;

    Edit(StorageOptions o) {
      sharedBufferBytes = o.sharedBufferBytes;
      memtableBytes = o.memtableBytes;
      blockCacheBytes = o.blockCacheBytes;
      targetFileBytes = o.targetFileBytes;
      l0Trigger = o.l0Trigger;
      levelBaseBytes = o.levelBaseBytes;
      checkpointEvery = o.checkpointEvery;
      verifyFileChecksum = o.verifyFileChecksum;
      autoCompact = o.autoCompact;
      uploadThreads = o.uploadThreads;
      compactionThreads = o.compactionThreads;
      maxPendingSyncs = o.maxPendingSyncs;
      clock = o.clock;
      registry = o.registry;
    }

    StorageOptions done() {
      return new StorageOptions(
          sharedBufferBytes,
          memtableBytes,
          blockCacheBytes,
          targetFileBytes,
          l0Trigger,
          levelBaseBytes,
          checkpointEvery,
          verifyFileChecksum,
          autoCompact,
          uploadThreads,
          compactionThreads,
          maxPendingSyncs,
          clock,
          registry);
    }
  }
}
