package dev.tideway.meta.barrier;

import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each compute node's heap and compaction activity as its last committed checkpoint reported them
 * ({@link NodeReport}s, by the term's node id). Every node completes every checkpoint, so a
 * commit's reports name every node that runs actors; the board is replaced at each commit that
 * carries node reports, and a node that left drops out with the next one. One per leader term (node
 * ids are the term's). Written on the barrier loop's thread, read from any thread.
 */
public final class NodeStatuses implements BarrierObserver {
  /**
   * One node's figures.
   *
   * @param heapUsedBytes heap in use
   * @param heapMaxBytes the heap's maximum
   * @param compactionsFinished compaction tasks the node ran to the end (or to a failure)
   * @param compactionsRunning compaction tasks running on it now
   * @param compactionsFailed of the finished, those that failed
   * @param compactionReadBytes SST bytes its compactions read
   * @param compactionWrittenBytes SST bytes its compactions wrote
   * @param lastCompactionAtMs when its last compaction task finished (0: none yet)
   */
  public record Status(
      long heapUsedBytes,
      long heapMaxBytes,
      long compactionsFinished,
      long compactionsRunning,
      long compactionsFailed,
      long compactionReadBytes,
      long compactionWrittenBytes,
      long lastCompactionAtMs) {
    static final Status NONE = new Status(0, 0, 0, 0, 0, 0, 0, 0);

    /** This status with report {@code code}'s two figures. */
    Status with(byte code, long a, long b) {
      return switch (code) {
        case NodeReport.HEAP ->
            new Status(
                a,
                b,
                compactionsFinished,
                compactionsRunning,
                compactionsFailed,
                compactionReadBytes,
                compactionWrittenBytes,
                lastCompactionAtMs);
        case NodeReport.COMPACTIONS ->
            new Status(
                heapUsedBytes,
                heapMaxBytes,
                a,
                b,
                compactionsFailed,
                compactionReadBytes,
                compactionWrittenBytes,
                lastCompactionAtMs);
        case NodeReport.COMPACTION_BYTES ->
            new Status(
                heapUsedBytes,
                heapMaxBytes,
                compactionsFinished,
                compactionsRunning,
                compactionsFailed,
                a,
                b,
                lastCompactionAtMs);
        case NodeReport.LAST_COMPACTION ->
            new Status(
                heapUsedBytes,
                heapMaxBytes,
                compactionsFinished,
                compactionsRunning,
                b,
                compactionReadBytes,
                compactionWrittenBytes,
                a);
        default -> throw new IllegalArgumentException("not a node report code: " + code);
      };
    }
  }

  private volatile Map<Integer, Status> byNode = Map.of();

  @Override
  public void onReportsCommitted(List<ProgressBatch> reports) {
    Map<Integer, Status> next = new HashMap<>();
    for (ProgressBatch b : reports) { // oldest first: a later report of a node wins
      for (int i = 0; i < b.size(); i++) {
        byte code = b.code(i);
        if (NodeReport.isNodeReport(code)) {
          long a = b.a(i);
          long rows = b.rows(i);
          next.put(b.actorId(i), next.getOrDefault(b.actorId(i), Status.NONE).with(code, a, rows));
        }
      }
    }
    if (!next.isEmpty()) {
      byNode = Map.copyOf(next);
    }
  }

  /** The latest status of each node, by the term's node id. */
  public Map<Integer, Status> byNode() {
    return byNode;
  }
}
