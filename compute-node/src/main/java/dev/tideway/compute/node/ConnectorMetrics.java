package dev.tideway.compute.node;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.ConnectorStats;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's connector metrics: {@code tideway_source_parse_errors_total{source}} (records skipped
 * because they did not parse), {@code tideway_source_lag_records{source,split}} (how far each split
 * is behind its end), and per sink {@code tideway_sink_delivered_epoch_timestamp_seconds}, {@code
 * tideway_sink_delivered_records_total} and {@code tideway_sink_delivery_failures_total}. A skipped
 * record is logged with its split, offset and reason, at most once per {@link #LOG_INTERVAL_MS} per
 * source with the number suppressed since.
 *
 * <p>Thread-safe.
 */
public final class ConnectorMetrics implements ConnectorStats {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectorMetrics.class);

  /** The least time between two log lines about one source's skipped records. */
  static final long LOG_INTERVAL_MS = 10_000;

  private final Clock clock;
  private final Counter parseErrors;
  private final Gauge lag;
  private final Gauge deliveredAt;
  private final Counter deliveredRecords;
  private final Counter deliveryFailures;

  /** Per source: {@code [last logged at, suppressed since]}; each guarded by its own monitor. */
  private final ConcurrentHashMap<String, long[]> logState = new ConcurrentHashMap<>();

  public ConnectorMetrics(Clock clock, PrometheusRegistry registry) {
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
    this.deliveredAt =
        Gauge.builder()
            .name("tideway_sink_delivered_epoch_timestamp_seconds")
            .help("Time of the newest epoch a sink delivered to its external system")
            .labelNames("sink_id")
            .register(registry);
    this.deliveredRecords =
        Counter.builder()
            .name("tideway_sink_delivered_records_total")
            .help("Records a sink delivered (an epoch sent again after a recovery counts again)")
            .labelNames("sink_id")
            .register(registry);
    this.deliveryFailures =
        Counter.builder()
            .name("tideway_sink_delivery_failures_total")
            .help("Deliveries of a sink that failed (each fails the sink's actor, so a recovery)")
            .labelNames("sink_id")
            .register(registry);
  }

  @Override
  public void delivered(int sinkId, long epoch, long records) {
    String id = Integer.toString(sinkId);
    deliveredAt.labelValues(id).set(Epoch.unixMillis(epoch) / 1000.0);
    deliveredRecords.labelValues(id).inc(records);
  }

  @Override
  public void deliveryFailed(int sinkId, String reason) {
    deliveryFailures.labelValues(Integer.toString(sinkId)).inc();
    LOG.warn("sink {}: a delivery failed: {}", sinkId, reason);
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
