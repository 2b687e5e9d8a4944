package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.SinkDelivery;
import java.util.List;
import org.junit.jupiter.api.Test;

class SinkDeliveriesTest {
  private static ProgressBatch delivered(int actor, long epoch, long records) {
    ProgressBatch b = new ProgressBatch(2);
    b.add(actor, SinkDelivery.CODE, epoch, records);
    return b;
  }

  @Test
  void theLatestReportOfEachSinkActorStandsAndBackfillReportsAreNotSinks() {
    SinkDeliveries board = new SinkDeliveries();
    ProgressBatch mixed = delivered(7, 100, 10);
    mixed.add(3, new BackfillState.ConsumingUpstream(1, 500));
    board.onReportsCommitted(List.of(mixed, delivered(7, 200, 30), delivered(8, 150, 5)));
    assertThat(board.byActor())
        .containsOnlyKeys(7, 8)
        .containsEntry(7, new SinkDeliveries.Delivered(200, 30))
        .containsEntry(8, new SinkDeliveries.Delivered(150, 5));
  }

  @Test
  void aSinkActorThatStopsReportingLeavesTheBoardAtTheNextCommit() {
    SinkDeliveries board = new SinkDeliveries();
    board.onReportsCommitted(List.of(delivered(7, 100, 10), delivered(8, 100, 1)));
    board.onReportsCommitted(List.of(delivered(8, 300, 4))); // actor 7's sink was dropped
    assertThat(board.byActor()).containsOnlyKeys(8);
    board.onReportsCommitted(List.of());
    assertThat(board.byActor()).isEmpty();
  }
}
