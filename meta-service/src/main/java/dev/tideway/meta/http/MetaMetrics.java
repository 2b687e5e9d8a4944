package dev.tideway.meta.http;

import dev.tideway.meta.barrier.BarrierObserver;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The meta process's Prometheus metrics, in base units with the {@code tideway_} prefix. Gauges are
 * computed at scrape time from the {@link MetaView} (no state of their own); counters are
 * thread-safe.
 */
public final class MetaMetrics implements BarrierObserver {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter leaderChanges;
  private final Counter recoveries;
  private final Histogram barrierLatency;
  private final Histogram commitDuration;

  public MetaMetrics(MetaView view) {
    GaugeWithCallback.builder()
        .name("tideway_meta_is_leader")
        .help("1 if this meta process is the leader, else 0")
        .callback(cb -> cb.call(view.isLeader() ? 1 : 0))
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_ddl_jobs")
        .help("Streaming jobs by state (known to the leader)")
        .labelNames("state")
        .callback(
            cb -> {
              CatalogState s = view.isLeader() ? view.catalog().orElse(null) : null;
              for (JobStatus st : JobStatus.values()) {
                long n =
                    s == null
                        ? 0
                        : s.jobs().values().stream()
                            .map(JobRecord::status)
                            .filter(st::equals)
                            .count();
                cb.call(n, st.name());
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_ddl_progress_ratio")
        .help("Displayed backfill progress of a creating job (0..1, never decreases)")
        .labelNames("job_id")
        .callback(
            cb ->
                view.progress()
                    .values()
                    .forEach(p -> cb.call(p.displayRatio(), Long.toString(p.jobId()))))
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_ddl_consumed_rows")
        .help("Snapshot rows consumed by a creating job's backfill")
        .labelNames("job_id")
        .callback(
            cb ->
                view.progress()
                    .values()
                    .forEach(p -> cb.call(p.totalConsumed(), Long.toString(p.jobId()))))
        .register(registry);
    perJobGauges(view);
    GaugeWithCallback.builder()
        .name("tideway_barrier_inflight")
        .help("Barriers injected and not yet collected from every node (leader)")
        .callback(cb -> cb.call(view.inflightBarriers()))
        .register(registry);
    barrierLatency =
        Histogram.builder()
            .name("tideway_barrier_latency_seconds")
            .help("Time from injecting a barrier to collecting it from every node")
            .labelNames("kind")
            .classicUpperBounds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
            .register(registry);
    commitDuration =
        Histogram.builder()
            .name("tideway_barrier_commit_duration_seconds")
            .help("Time to commit a checkpoint: storage version, progress, fenced metadata write")
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
            .register(registry);
    recoveries =
        Counter.builder()
            .name("tideway_recovery_total")
            .help("Global recoveries started by this process while leading, by cause")
            .labelNames("cause")
            .register(registry);
    leaderChanges =
        Counter.builder()
            .name("tideway_meta_leader_changes_total")
            .help("Times this process became or stopped being the leader")
            .register(registry);
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  public void leadershipChanged() {
    leaderChanges.inc();
  }

  private void perJobGauges(MetaView view) {
    GaugeWithCallback.builder()
        .name("tideway_ddl_rows_per_second")
        .help("Backfill rate of a creating job, rows per second")
        .labelNames("job_id")
        .callback(
            cb ->
                view.progress()
                    .values()
                    .forEach(p -> cb.call(p.rowsPerSecond(), Long.toString(p.jobId()))))
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_ddl_eta_seconds")
        .help("Estimated seconds until a creating job's backfill finishes (absent when unknown)")
        .labelNames("job_id")
        .callback(
            cb ->
                view.progress()
                    .values()
                    .forEach(
                        p ->
                            p.etaSeconds()
                                .ifPresent(eta -> cb.call(eta, Long.toString(p.jobId())))))
        .register(registry);
  }

  @Override
  public void onCollected(String kind, double seconds) {
    barrierLatency.labelValues(kind).observe(seconds);
  }

  @Override
  public void onCommitted(double seconds) {
    commitDuration.observe(seconds);
  }

  @Override
  public void onRecovery(String cause) {
    recoveries.labelValues(cause).inc();
  }
}
