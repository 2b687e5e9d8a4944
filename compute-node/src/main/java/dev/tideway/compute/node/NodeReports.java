package dev.tideway.compute.node;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.CompactionOutcome;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a compute node tells meta about itself with each checkpoint it completes ({@link
 * NodeReport}s in the checkpoint's {@link ProgressBatch}, so no message of its own): its heap, and
 * its state store's compactions. Finished compactions and their bytes are the store's own counters
 * on the node's {@code /metrics} ({@code tideway_storage_compactions}, {@code
 * tideway_storage_compaction_read_bytes}, {@code _write_bytes}), so a standalone store's own
 * compactions count as well as the tasks meta sends; the tasks meta sent that are running or failed
 * are counted here ({@link #track}). The last compaction's time is when this node saw the count
 * grow (at a checkpoint) or a task end. Meta shows the latest on the cluster page.
 *
 * <p>Thread-safe: {@link #track} and {@link #appendTo} run on the control actor, a task completes
 * on the store's compactor pool; the tallies are atomics.
 */
final class NodeReports {
  private final int nodeId;
  private final Clock clock;
  private final PrometheusRegistry registry;
  private final AtomicLong running = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong lastFinishedAtMs = new AtomicLong();

  /** The store's compaction count at the previous report (to see it grow). */
  private long lastCount;

  NodeReports(int nodeId, Clock clock, PrometheusRegistry registry) {
    this.nodeId = nodeId;
    this.clock = clock;
    this.registry = registry;
  }

  /** Counts the compaction task {@code task} while it runs and once it ends; returns it. */
  CompletableFuture<CompactionOutcome> track(CompletableFuture<CompactionOutcome> task) {
    running.incrementAndGet();
    task.whenComplete(
        (outcome, err) -> {
          if (outcome == null) {
            failed.incrementAndGet();
          }
          lastFinishedAtMs.set(clock.currentTimeMillis());
          running.decrementAndGet();
        });
    return task;
  }

  /** Adds this node's reports to a checkpoint's batch (other barriers go as they are). */
  BarrierCompleted<Object> appendTo(BarrierCompleted<Object> completed) {
    if (completed.kind() == BarrierKind.CHECKPOINT) {
      ProgressBatch b = completed.progress();
      Runtime rt = Runtime.getRuntime();
      Map<String, Long> c = counters();
      long count = c.getOrDefault(COMPACTIONS, 0L);
      if (count > lastCount) {
        lastCount = count;
        lastFinishedAtMs.accumulateAndGet(clock.currentTimeMillis(), Math::max);
      }
      b.add(nodeId, NodeReport.HEAP, rt.totalMemory() - rt.freeMemory(), rt.maxMemory());
      b.add(nodeId, NodeReport.COMPACTIONS, count + failed.get(), running.get());
      b.add(
          nodeId,
          NodeReport.COMPACTION_BYTES,
          c.getOrDefault(READ_BYTES, 0L),
          c.getOrDefault(WRITTEN_BYTES, 0L));
      b.add(nodeId, NodeReport.LAST_COMPACTION, lastFinishedAtMs.get(), failed.get());
    }
    return completed;
  }

  static final String COMPACTIONS = "tideway_storage_compactions";
  static final String READ_BYTES = "tideway_storage_compaction_read_bytes";
  static final String WRITTEN_BYTES = "tideway_storage_compaction_write_bytes";

  /** The store's compaction counters from the node's registry, by name (absent: no store). */
  private Map<String, Long> counters() {
    Map<String, Long> out = new HashMap<>();
    for (MetricSnapshot s : registry.scrape(n -> n.startsWith("tideway_storage_compaction"))) {
      if (s instanceof CounterSnapshot cs) {
        double sum = 0;
        for (CounterSnapshot.CounterDataPointSnapshot d : cs.getDataPoints()) {
          sum += d.getValue();
        }
        out.put(cs.getMetadata().getPrometheusName(), (long) sum);
      }
    }
    return out;
  }

  /** The store's SSTs and per-table stats delta, in the barrier protocol's terms. */
  static SyncResult<Object> toBarrierResult(dev.tideway.storage.api.SyncResult r) {
    List<TableStatsDelta> deltas = new ArrayList<>();
    r.statsDelta()
        .forEach(
            (table, s) ->
                deltas.add(new TableStatsDelta(table, s.totalKeyCount(), s.liveRowCount(), true)));
    return new SyncResult<>(List.copyOf(r.ssts()), deltas);
  }
}
