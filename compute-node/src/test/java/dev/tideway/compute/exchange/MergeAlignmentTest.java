package dev.tideway.compute.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.actor.TestSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Barrier alignment under skewed inputs: two upstream sources on their own threads, one emitting 1
 * chunk per epoch and the other 40, feed a merge through bounded local channels.
 */
class MergeAlignmentTest {
  private static final int EPOCHS = 30;
  private static final int CAPACITY = 8;

  @Test
  void aChannelReadAsTwoInputsIsRefusedWhenTheMergeIsBuilt() {
    LocalChannel ch = new LocalChannel(ChannelId.of(5, 27), CAPACITY);
    assertThatThrownBy(
            () ->
                new MergeExecutor(
                    new ExecutorInfo(27, 1, "Merge"), TestSource.SCHEMA, List.of(ch, ch)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is an input twice");
  }

  @Test
  void skewedInputsAlignEveryBarrierAndNoRowCrossesIt() throws Exception {
    LocalChannel slowCh = new LocalChannel(ChannelId.of(1, 3), CAPACITY);
    LocalChannel fastCh = new LocalChannel(ChannelId.of(2, 3), CAPACITY);
    BarrierInbox slowInbox = new BarrierInbox(1);
    BarrierInbox fastInbox = new BarrierInbox(2);
    // keys: slow source even, fast source odd
    TestSource slow = new TestSource(new ExecutorInfo(1, 1, "Slow"), slowInbox, 1, 2, 0, 2);
    TestSource fast = new TestSource(new ExecutorInfo(2, 1, "Fast"), fastInbox, 40, 16, 1, 2);
    Map<Long, Integer> epochOfKeyAtSource = new HashMap<>();
    Thread a = pump(slow, slowCh, epochOfKeyAtSource);
    Thread b = pump(fast, fastCh, epochOfKeyAtSource);
    a.start();
    b.start();
    MergeExecutor merge =
        new MergeExecutor(
            new ExecutorInfo(3, 1, "Merge"), TestSource.SCHEMA, List.of(slowCh, fastCh));

    long[] injectedNs = new long[EPOCHS + 1];
    long maxLatencyNs = 0;
    int epoch = 0;
    Map<Long, Integer> epochOfKeyAtMerge = new HashMap<>();
    TreeMap<Integer, Integer> rowsPerEpoch = new TreeMap<>();
    List<Barrier> barriers = new ArrayList<>();
    injectedNs[1] = inject(1, slowInbox, fastInbox);
    while (barriers.size() < EPOCHS) {
      Message m = merge.next();
      if (m instanceof Barrier bar) {
        barriers.add(bar);
        epoch++;
        maxLatencyNs = Math.max(maxLatencyNs, Clock.system().nanoTime() - injectedNs[epoch]);
        assertThat(slowCh.size()).isLessThanOrEqualTo(CAPACITY);
        assertThat(fastCh.size()).isLessThanOrEqualTo(CAPACITY);
        if (epoch < EPOCHS) {
          injectedNs[epoch + 1] = inject(epoch + 1, slowInbox, fastInbox);
        }
      } else if (m instanceof Message.Chunk c) {
        for (var r : c.chunk().visibleRows()) {
          epochOfKeyAtMerge.put((Long) r.row().get(0), epoch);
          rowsPerEpoch.merge(epoch, 1, Integer::sum);
        }
      }
    }
    a.join(5_000);
    b.join(5_000);

    for (int i = 0; i < EPOCHS; i++) {
      assertThat(barriers.get(i)).isEqualTo(TestBarriers.barrier(i + 1));
    }
    synchronized (epochOfKeyAtSource) {
      assertThat(epochOfKeyAtMerge)
          .as("each row leaves the merge in the epoch its source emitted it in")
          .isEqualTo(epochOfKeyAtSource);
    }
    // every closed epoch has 1 chunk of 2 rows from the slow side and 40 x 16 from the fast side
    rowsPerEpoch.headMap(EPOCHS).values().forEach(n -> assertThat(n).isEqualTo(2 + 40 * 16));
    assertThat(maxLatencyNs / 1_000_000)
        .as("barrier latency stays bounded while data flows (ms)")
        .isLessThan(5_000);
  }

  private static long inject(int i, BarrierInbox... inboxes) {
    for (BarrierInbox in : inboxes) {
      in.push(TestBarriers.barrier(i));
    }
    return Clock.system().nanoTime();
  }

  /** Runs {@code source} into {@code out} until EPOCHS barriers passed; records keys by epoch. */
  private static Thread pump(TestSource source, LocalChannel out, Map<Long, Integer> epochOfKey) {
    return Threads.named("pump-" + source.info().actorId(), true)
        .newThread(
            () -> {
              int epoch = 0;
              while (epoch < EPOCHS) {
                Message m = source.next();
                if (m instanceof Barrier) {
                  epoch++;
                } else if (m instanceof Message.Chunk c) {
                  synchronized (epochOfKey) {
                    for (var r : c.chunk().visibleRows()) {
                      epochOfKey.put((Long) r.row().get(0), epoch);
                    }
                  }
                }
                out.send(m);
              }
            });
  }
}
