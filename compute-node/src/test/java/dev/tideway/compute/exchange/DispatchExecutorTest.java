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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  private static Barrier withMutation(int i, Mutation m) {
    return new Barrier(
        new EpochPair(TestBarriers.epoch(i), TestBarriers.epoch(i - 1)), BarrierKind.CHECKPOINT, m);
  }

  @Test
  void anOutputAddedForNewActorsStartsWithTheirAddBarrierAndEndsAfterTheirStop() {
    LocalChannel toSeven = new LocalChannel(ChannelId.of(5, 7), 10);
    Message before = Message.of(Chunks.parse("+ 1 2\n"));
    Barrier unrelatedAdd = withMutation(2, new Mutation.Add(Set.of(9), Map.of(), Map.of(), false));
    Barrier add = withMutation(3, new Mutation.Add(Set.of(7), Map.of(), Map.of(), false));
    Message after = Message.of(Chunks.parse("+ 3 4\n"));
    Barrier stop = withMutation(4, new Mutation.Stop(Set.of(7)));
    Message last = Message.of(Chunks.parse("+ 5 6\n"));
    List<Long> closed = new ArrayList<>();
    DispatchExecutor d =
        new DispatchExecutor(
            new ExecutorInfo(5, -1, "Dispatch"),
            new ListExecutor(
                new ExecutorInfo(5, 1, "List"),
                TestSource.SCHEMA,
                List.of(TestBarriers.barrier(1), before, unrelatedAdd, add, after, stop, last)),
            List.of(),
            closed::add);
    d.addOnBarrier(new SimpleDispatcher(toSeven));
    while (d.next() != null) {}

    List<Message> got = new ArrayList<>();
    Message m;
    while ((m = toSeven.poll()) != null) {
      got.add(m);
    }
    assertThat(got).containsExactly(add, after, stop);
    assertThat(closed).containsExactly(ChannelId.of(5, 7));
    assertThat(d.dispatcherCount()).isZero();
  }

  @Test
  void stoppingSomeActorsOfOneDispatcherIsAScaleInAndFails() {
    LocalChannel toSeven = new LocalChannel(ChannelId.of(5, 7), 10);
    DispatchExecutor d =
        new DispatchExecutor(
            new ExecutorInfo(5, -1, "Dispatch"),
            new ListExecutor(
                new ExecutorInfo(5, 1, "List"),
                TestSource.SCHEMA,
                List.of(TestBarriers.barrier(1), withMutation(2, new Mutation.Stop(Set.of(7))))),
            List.of(new BroadcastDispatcher(List.of(out, toSeven))),
            c -> {});
    d.next();
    assertThatThrownBy(d::next)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("scale-in");
  }
}
