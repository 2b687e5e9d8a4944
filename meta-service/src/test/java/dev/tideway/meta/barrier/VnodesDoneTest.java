package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.BackfillVnodes;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class VnodesDoneTest {
  private static ProgressBatch report(int actor, long rows, int done, int owned) {
    ProgressBatch b = new ProgressBatch(2);
    b.add(actor, new BackfillState.ConsumingUpstream(1, rows));
    b.add(actor, BackfillVnodes.CODE, done, owned);
    return b;
  }

  @Test
  void eachActorsLatestCountStandsAndAFinishedActorLeavesTheBoard() {
    VnodesDone board = new VnodesDone();
    board.onReportsCommitted(List.of(report(1, 10, 2, 128), report(2, 5, 0, 128)));
    board.onReportsCommitted(List.of(report(1, 20, 3, 128), report(1, 30, 7, 128)));
    assertThat(board.byActor())
        .as("actor 2 finished (no more reports); actor 1's later report wins")
        .containsOnlyKeys(1)
        .containsEntry(1, new VnodesDone.Count(7, 128));
  }
}
