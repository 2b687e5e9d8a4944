package dev.tideway.storage.metrics;

import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.sst.BlockCache;
import dev.tideway.storage.version.Version;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The storage engine's Prometheus metrics, registered in the registry the node exposes on {@code
 * /metrics}. Names start with {@code tideway_storage_}. Thread-safe (the client's metrics are).
 */
public final class StorageMetrics implements AutoCloseable {
  private final PrometheusRegistry registry;
  private final GaugeWithCallback hitRatio;
  public final Counter syncBytes;
  public final Counter syncRows;
  public final Histogram syncDuration;
  public final Counter writeStallSeconds;
  public final Gauge sstCount;
  public final Gauge sstBytes;
  public final Counter compactionReadBytes;
  public final Counter compactionWriteBytes;
  public final Counter compactionDroppedKeys;
  public final Counter compactions;

  public StorageMetrics(PrometheusRegistry registry, BlockCache cache) {
    this.registry = registry;
    syncBytes =
        Counter.builder()
            .name("tideway_storage_sync_bytes")
            .help("Bytes of SSTs written by sync")
            .register(registry);
    syncRows =
        Counter.builder()
            .name("tideway_storage_sync_rows")
            .help("Rows written by sync")
            .register(registry);
    syncDuration =
        Histogram.builder()
            .name("tideway_storage_sync_duration_seconds")
            .help("Duration of sync(epoch)")
            .register(registry);
    writeStallSeconds =
        Counter.builder()
            .name("tideway_storage_write_stall_seconds")
            .help("Time writers waited at a seal for the sync queue to drain (backpressure)")
            .register(registry);
    sstCount =
        Gauge.builder()
            .name("tideway_storage_sst_count")
            .help("SSTs per level of the current version")
            .labelNames("level")
            .register(registry);
    sstBytes =
        Gauge.builder()
            .name("tideway_storage_sst_bytes")
            .help("Bytes of the SSTs in each level of the current version: the state store's size")
            .labelNames("level")
            .register(registry);
    compactionReadBytes =
        Counter.builder()
            .name("tideway_storage_compaction_read_bytes")
            .help("SST bytes read by compaction")
            .register(registry);
    compactionWriteBytes =
        Counter.builder()
            .name("tideway_storage_compaction_write_bytes")
            .help("SST bytes written by compaction")
            .register(registry);
    compactionDroppedKeys =
        Counter.builder()
            .name("tideway_storage_compaction_dropped_keys")
            .help("Key versions dropped by compaction")
            .register(registry);
    compactions =
        Counter.builder()
            .name("tideway_storage_compactions")
            .help("Compaction rewrites this process ran (its own, or a task the meta leader sent)")
            .register(registry);
    hitRatio =
        GaugeWithCallback.builder()
            .name("tideway_storage_block_cache_hit_ratio")
            .help("Block cache hits / lookups since start")
            .callback(
                cb -> {
                  long h = cache.hits();
                  long total = h + cache.misses();
                  cb.call(total == 0 ? 0 : (double) h / total);
                })
            .register(registry);
  }

  /** Unregisters every metric (the engine is closing; a reopened one registers again). */
  @Override
  public void close() {
    for (io.prometheus.metrics.model.registry.Collector c :
        java.util.List.<io.prometheus.metrics.model.registry.Collector>of(
            syncBytes,
            syncRows,
            syncDuration,
            writeStallSeconds,
            sstCount,
            sstBytes,
            compactionReadBytes,
            compactionWriteBytes,
            compactionDroppedKeys,
            compactions,
            hitRatio)) {
      registry.unregister(c);
    }
  }

  /** Counts one compaction rewrite and what it read, wrote and dropped. */
  public void onCompaction(CompactionOutcome o) {
    compactionReadBytes.inc(o.readBytes());
    compactionWriteBytes.inc(o.writtenBytes());
    compactionDroppedKeys.inc(o.droppedKeys());
    compactions.inc();
  }

  /** Updates the per-level gauges after a version change. */
  public void onVersion(Version v) {
    v.sstCountPerLevel()
        .forEach((level, n) -> sstCount.labelValues(Integer.toString(level)).set(n));
    v.levels().forEach(l -> sstBytes.labelValues(Integer.toString(l.index())).set(l.totalBytes()));
  }
}
