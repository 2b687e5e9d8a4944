package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeStatusesTest {
  private static ProgressBatch node(int id, long heapUsed, long finished, long running) {
    ProgressBatch b = new ProgressBatch(4);
    b.add(id, NodeReport.HEAP, heapUsed, 1L << 30);
    b.add(id, NodeReport.COMPACTIONS, finished, running);
    b.add(id, NodeReport.COMPACTION_BYTES, finished * 1000, finished * 600);
    b.add(id, NodeReport.LAST_COMPACTION, finished == 0 ? 0 : 1_700_000_000_000L + finished, 1);
    return b;
  }

  @Test
  void eachNodesLatestHeapAndCompactionsStandAndActorReportsAreNotNodes() {
    NodeStatuses board = new NodeStatuses();
    ProgressBatch mixed = node(1, 100, 0, 1);
    mixed.add(3, new BackfillState.ConsumingUpstream(1, 500));
    board.onReportsCommitted(List.of(mixed, node(2, 300, 1, 0), node(1, 200, 2, 0)));
    assertThat(board.byNode()).containsOnlyKeys(1, 2);
    NodeStatuses.Status one = board.byNode().get(1);
    assertThat(one.heapUsedBytes()).as("the later report wins").isEqualTo(200);
    assertThat(one.heapMaxBytes()).isEqualTo(1L << 30);
    assertThat(one.compactionsFinished()).isEqualTo(2);
    assertThat(one.compactionsRunning()).isZero();
    assertThat(one.compactionsFailed()).isEqualTo(1);
    assertThat(one.compactionReadBytes()).isEqualTo(2000);
    assertThat(one.compactionWrittenBytes()).isEqualTo(1200);
    assertThat(one.lastCompactionAtMs()).isEqualTo(1_700_000_000_002L);
  }

  @Test
  void aNodeThatStopsReportingLeavesTheBoardButACommitWithoutNodeReportsKeepsIt() {
    NodeStatuses board = new NodeStatuses();
    board.onReportsCommitted(List.of(node(1, 100, 0, 0), node(2, 100, 0, 0)));
    board.onReportsCommitted(List.of(node(2, 150, 0, 0))); // node 1 left
    assertThat(board.byNode()).containsOnlyKeys(2);
    ProgressBatch backfillOnly = new ProgressBatch(1);
    backfillOnly.add(3, new BackfillState.ConsumingUpstream(1, 5));
    board.onReportsCommitted(List.of(backfillOnly));
    assertThat(board.byNode()).containsOnlyKeys(2);
  }
}
