package dev.tideway.compute.node;

import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.source.SourceStats;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's connector-source metrics: {@code tideway_source_parse_errors_total{source}} (records
 * skipped because they did not parse) and {@code tideway_source_lag_records{source,split}} (how far
 * each split is behind its end). A skipped record is logged with its split, offset and reason, at
 * most once per {@link #LOG_INTERVAL_MS} per source with the number suppressed since.
 *
 * <p>Thread-safe.
 */
public final class SourceMetrics implements SourceStats {
  private static final Logger LOG = LoggerFactory.getLogger(SourceMetrics.class);

  /** The least time between two log lines about one source's skipped records. */
  static final long LOG_INTERVAL_MS = 10_000;

  private final Clock clock;
  private final Counter parseErrors;
  private final Gauge lag;

  /** Per source: {@code [last logged at, suppressed since]}; each guarded by its own monitor. */
  private final ConcurrentHashMap<String, long[]> logState = new ConcurrentHashMap<>();

  public SourceMetrics(Clock clock, PrometheusRegistry registry) {
    this.clock = clock;
    this.parseErrors =
        Counter.builder()
            .name("tideway_source_parse_errors_total")
            .help(
                "Records a source skipped because they do not parse into its columns (one read again after a recovery counts again)")
            .labelNames("source")
            .register(registry);
    this.lag =
        Gauge.builder()
            .name("tideway_source_lag_records")
            .help("Records of a source's split not read yet (its end offset minus the next read)")
            .labelNames("source", "split")
            .register(registry);
  }

  @Override
  public void recordSkipped(String source, String split, long offset, String reason) {
    parseErrors.labelValues(source).inc();
    long[] st = logState.computeIfAbsent(source, s -> new long[] {Long.MIN_VALUE, 0});
    long now = clock.currentTimeMillis();
    long suppressed;
    synchronized (st) {
      if (st[0] != Long.MIN_VALUE && now - st[0] < LOG_INTERVAL_MS) {
        st[1]++;
        return;
      }
      suppressed = st[1];
      st[0] = now;
      st[1] = 0;
    }
    LOG.warn(
        "source {}: skipped the record at {} offset {}: {}{}",
        source,
        split,
        offset,
        reason,
        suppressed == 0 ? "" : " (" + suppressed + " more skipped since the last report)");
  }

  @Override
  public void lag(String source, String split, long records) {
    lag.labelValues(source, split).set(records);
  }
}
