package dev.tideway.compute.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.time.ManualClock;
import dev.tideway.storage.api.CompactionOutcome;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class NodeReportsTest {
  static BarrierCompleted<Object> completed(BarrierKind kind) {
    return new BarrierCompleted<>(
        3, 0, new EpochPair(2L << 16, 1L << 16), kind, List.of(), List.of(), new ProgressBatch(4));
  }

  /** The report of {@code code} in {@code b} as {actorId, a, rows}. */
  static long[] report(ProgressBatch b, byte code) {
    for (int i = 0; i < b.size(); i++) {
      if (b.code(i) == code) {
        return new long[] {b.actorId(i), b.a(i), b.rows(i)};
      }
    }
    throw new AssertionError("no report " + code + " in " + b);
  }

  @Test
  void aCheckpointCarriesTheHeapAndTheStoresCompactionsAndOtherBarriersNothing() {
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter tasks = Counter.builder().name(NodeReports.COMPACTIONS).register(registry);
    Counter read = Counter.builder().name(NodeReports.READ_BYTES).register(registry);
    Counter written = Counter.builder().name(NodeReports.WRITTEN_BYTES).register(registry);
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    NodeReports reports = new NodeReports(3, clock, registry);

    assertThat(reports.appendTo(completed(BarrierKind.BARRIER)).progress().size()).isZero();
    ProgressBatch first = reports.appendTo(completed(BarrierKind.CHECKPOINT)).progress();
    assertThat(first.size()).isEqualTo(4);
    long[] heap = report(first, NodeReport.HEAP);
    assertThat(heap[0]).as("the node's id").isEqualTo(3);
    assertThat(heap[1]).as("heap used").isPositive();
    assertThat(heap[2]).as("heap max").isGreaterThanOrEqualTo(heap[1]);
    assertThat(report(first, NodeReport.COMPACTIONS)).containsExactly(3, 0, 0);
    assertThat(report(first, NodeReport.LAST_COMPACTION)).containsExactly(3, 0, 0);

    // the store compacted twice; then a task meta sent is running, and one failed
    tasks.inc(2);
    read.inc(5_000);
    written.inc(3_000);
    clock.advanceMillis(1_000);
    CompletableFuture<CompactionOutcome> runningTask = reports.track(new CompletableFuture<>());
    CompletableFuture<CompactionOutcome> failing = reports.track(new CompletableFuture<>());
    failing.completeExceptionally(new IllegalStateException("disk full"));
    ProgressBatch later = reports.appendTo(completed(BarrierKind.CHECKPOINT)).progress();
    assertThat(report(later, NodeReport.COMPACTIONS))
        .as("finished (2 rewrites + 1 failed task), running")
        .containsExactly(3, 3, 1);
    assertThat(report(later, NodeReport.COMPACTION_BYTES)).containsExactly(3, 5_000, 3_000);
    assertThat(report(later, NodeReport.LAST_COMPACTION)).containsExactly(3, 1_700_000_001_000L, 1);
    assertThat(runningTask).isNotDone();
  }
}
