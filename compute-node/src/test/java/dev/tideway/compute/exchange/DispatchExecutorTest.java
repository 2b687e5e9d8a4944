package dev.tideway.compute.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.compute.actor.ListExecutor;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.actor.TestSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DispatchExecutorTest {
  private final LocalChannel out = new LocalChannel(ChannelId.of(5, 6), 10);

  private DispatchExecutor over(List<Message> input) {
    return new DispatchExecutor(
        new ExecutorInfo(5, -1, "Dispatch"),
        new ListExecutor(new ExecutorInfo(5, 1, "List"), TestSource.SCHEMA, input),
        new SimpleDispatcher(out));
  }

  @Test
  void aMessageIsInTheOutputChannelBeforeItIsReturned() {
    DispatchExecutor d =
        over(List.of(TestBarriers.barrier(1), Message.of(Chunks.parse("+ 1 2\n"))));
    assertThat(d.next()).isEqualTo(TestBarriers.barrier(1));
    assertThat(out.poll()).isEqualTo(TestBarriers.barrier(1));
    Message chunk = d.next();
    assertThat(out.poll()).isSameAs(chunk);
    assertThat(d.next()).isNull();
  }

  @Test
  void aDispatcherUpdateForThisActorFailsInsteadOfMisrouting() {
    Barrier update =
        new Barrier(
            new EpochPair(TestBarriers.epoch(2), TestBarriers.epoch(1)),
            BarrierKind.CHECKPOINT,
            new Mutation.Update(Map.of(5, List.of(7)), Map.of()));
    DispatchExecutor d = over(List.of(TestBarriers.barrier(1), update));
    d.next();
    assertThatThrownBy(d::next)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("actor 5")
        .hasMessageContaining("rescale");
    assertThat(out.size()).as("the update barrier was not forwarded").isEqualTo(1);
  }
}
