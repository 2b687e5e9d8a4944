package dev.tideway.barrier.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CreateMviewProgressReporterTest {
  private final List<String> sent = new ArrayList<>();
  private final ProgressSink sink =
      (epoch, actor, code, a, rows) ->
          sent.add(epoch.curr() + ":" + actor + "=" + BackfillState.decode(code, a, rows));
  private final CreateMviewProgressReporter r = new CreateMviewProgressReporter(7, sink);

  private static EpochPair e(long curr) {
    return new EpochPair(curr, curr - 1);
  }

  @Test
  void reportsTravelWithTheirEpochInOrder() {
    r.update(e(2), 1, 10);
    r.update(e(3), 2, 25);
    r.finish(e(4), 30);
    assertThat(sent)
        .containsExactly(
            "2:7=ConsumingUpstream[consumedEpoch=1, consumedRows=10]",
            "3:7=ConsumingUpstream[consumedEpoch=2, consumedRows=25]",
            "4:7=Done[consumedRows=30]");
    assertThat(r.state()).isEqualTo(new BackfillState.Done(30));
  }

  @Test
  void rowsMustNotGoBackwards() {
    r.update(e(2), 1, 10);
    assertThatThrownBy(() -> r.update(e(3), 2, 9))
        .hasMessageContaining("actor 7")
        .hasMessageContaining("cumulative rows went back from 10 to 9");
  }

  @Test
  void epochsAndConsumedEpochsMustNotGoBackwards() {
    r.update(e(5), 3, 10);
    assertThatThrownBy(() -> r.update(e(4), 3, 10))
        .hasMessageContaining("actor 7: update at epoch 4 after a report at epoch 5");
    assertThatThrownBy(() -> r.update(e(6), 2, 10))
        .hasMessageContaining("consumed epoch went back from 3 to 2");
  }

  @Test
  void finishIsIdempotentAndUpdateAfterFinishIsABug() {
    r.finish(e(2), 10);
    r.finish(e(3), 10);
    assertThat(sent).hasSize(2);
    assertThatThrownBy(() -> r.update(e(4), 3, 10))
        .hasMessageContaining("after the snapshot finished");
  }

  @Test
  void logStoreProgressIsLegalOnlyAfterTheSnapshot() {
    assertThatThrownBy(() -> r.updateLogStoreProgress(e(2), 5))
        .hasMessageContaining("legal only after the snapshot finished");
    assertThatThrownBy(() -> r.finishConsumingLogStore(e(2)))
        .hasMessageContaining("legal only after the snapshot finished");
    r.finish(e(2), 100);
    r.updateLogStoreProgress(e(3), 5);
    r.updateLogStoreProgress(e(4), 2);
    r.finishConsumingLogStore(e(5));
    r.finish(e(6), 100); // a late finish after the log store changes nothing
    assertThat(r.state()).isEqualTo(new BackfillState.DoneConsumingLogStore(100));
    assertThat(sent).last().isEqualTo("5:7=DoneConsumingLogStore[consumedRows=100]");
  }

  @Test
  void sourceBackfillReportsRowsWithoutAnEpoch() {
    r.updateForSourceBackfill(e(2), 40);
    assertThat(r.state()).isEqualTo(new BackfillState.ConsumingUpstream(0, 40));
  }
}
