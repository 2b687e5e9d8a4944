package dev.tideway.compute.node;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.CompactionOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a compute node tells meta about itself with each checkpoint it completes ({@link
 * NodeReport}s in the checkpoint's {@link ProgressBatch}, so no message of its own): its heap, and
 * the compaction tasks meta had it run ({@link #track}) with the bytes they read and wrote. Meta
 * shows the latest on the cluster page.
 *
 * <p>Thread-safe: {@link #track} and {@link #appendTo} run on the control actor, a task completes
 * on the store's compactor pool; the tallies are atomics.
 */
final class NodeReports {
  private final int nodeId;
  private final Clock clock;
  private final AtomicLong running = new AtomicLong();
  private final AtomicLong finished = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong readBytes = new AtomicLong();
  private final AtomicLong writtenBytes = new AtomicLong();
  private final AtomicLong lastFinishedAtMs = new AtomicLong();

  NodeReports(int nodeId, Clock clock) {
    this.nodeId = nodeId;
    this.clock = clock;
  }

  /** Counts the compaction task {@code task} while it runs and once it ends; returns it. */
  CompletableFuture<CompactionOutcome> track(CompletableFuture<CompactionOutcome> task) {
    running.incrementAndGet();
    task.whenComplete(
        (outcome, err) -> {
          if (outcome != null) {
            readBytes.addAndGet(outcome.readBytes());
            writtenBytes.addAndGet(outcome.writtenBytes());
          } else {
            failed.incrementAndGet();
          }
          finished.incrementAndGet();
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
      b.add(nodeId, NodeReport.HEAP, rt.totalMemory() - rt.freeMemory(), rt.maxMemory());
      b.add(nodeId, NodeReport.COMPACTIONS, finished.get(), running.get());
      b.add(nodeId, NodeReport.COMPACTION_BYTES, readBytes.get(), writtenBytes.get());
      b.add(nodeId, NodeReport.LAST_COMPACTION, lastFinishedAtMs.get(), failed.get());
    }
    return completed;
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
