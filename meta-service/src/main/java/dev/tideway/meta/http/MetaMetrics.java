package dev.tideway.meta.http;

import dev.tideway.meta.catalog.CatalogState;
import dev.tideway.meta.metadata.JobRecord;
import dev.tideway.meta.metadata.JobStatus;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The meta process's Prometheus metrics, in base units with the {@code tideway_} prefix. Gauges are
 * computed at scrape time from the {@link MetaView} (no state of their own); counters are
 * thread-safe.
 */
public final class MetaMetrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter leaderChanges;

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
                    .forEach(p -> cb.call(p.consumedRows(), Long.toString(p.jobId()))))
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
}
