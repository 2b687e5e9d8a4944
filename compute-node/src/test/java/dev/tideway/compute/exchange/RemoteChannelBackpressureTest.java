package dev.tideway.compute.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.actor.Doorbell;
import dev.tideway.compute.actor.TestBarriers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A remote channel wired without Pekko: frames and credits travel through queues drained by a
 * "network" thread, as the endpoint actor would deliver them. A consumer that sleeps between
 * messages must hold the producer back to the credit window.
 */
class RemoteChannelBackpressureTest {
  private static final int WINDOW = 8;
  private static final long CH = ChannelId.of(3, 4);

  private static StreamChunk chunk(long first, int rows) {
    StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.BIGINT), rows);
    for (int i = 0; i < rows; i++) {
      b.append(Op.INSERT, Row.of(first + i));
    }
    return b.build();
  }

  @Test
  void aSlowConsumerHoldsTheProducerToTheWindowAndEverythingArrivesInOrder() throws Exception {
    LinkedBlockingQueue<Object> network = new LinkedBlockingQueue<>();
    RemoteOutput out = new RemoteOutput(CH, WINDOW, 1, 30_000, network::add);
    RemoteInput in = RemoteInput.bound(CH, WINDOW, network::add);
    AtomicInteger minCredits = new AtomicInteger(WINDOW);
    AtomicInteger maxInFlight = new AtomicInteger();
    AtomicLong consumedFrames = new AtomicLong();
    Thread net =
        Threads.named("net", true)
            .newThread(
                () -> {
                  try {
                    while (true) {
                      Object o = network.take();
                      if (o instanceof ExchangeMessage.Frame f) {
                        in.onFrame(f);
                      } else {
                        out.grant(((ExchangeMessage.Credit) o).frames());
                      }
                      minCredits.accumulateAndGet(out.availableCredits(), Math::min);
                      long inFlight = out.framesSent() - consumedFrames.get();
                      maxInFlight.accumulateAndGet((int) inFlight, Math::max);
                    }
                  } catch (InterruptedException e) {
                    // test over
                  }
                });
    net.start();
    int chunks = 400;
    Thread producer =
        Threads.named("producer", true)
            .newThread(
                () -> {
                  out.send(TestBarriers.barrier(1));
                  for (int i = 0; i < chunks; i++) {
                    out.send(Message.of(chunk(i * 4L, 4)));
                  }
                  out.send(TestBarriers.barrier(2));
                });
    producer.start();

    List<Long> values = new ArrayList<>();
    List<Barrier> barriers = new ArrayList<>();
    Doorbell bell = new Doorbell();
    in.attach(bell);
    while (barriers.size() < 2) {
      Message m = in.poll();
      if (m == null) {
        bell.await(50);
        continue;
      }
      if (values.size() % 50 == 0) {
        Clock.system().sleepMillis(1); // the slow consumer
      }
      if (m instanceof Message.Chunk c) {
        c.chunk().visibleRows().forEach(r -> values.add((Long) r.row().get(0)));
        if (values.size() % 4 == 0) {
          consumedFrames.incrementAndGet();
        }
      } else {
        barriers.add((Barrier) m);
        consumedFrames.incrementAndGet();
      }
    }
    producer.join(10_000);
    net.interrupt();

    assertThat(values).hasSize(chunks * 4);
    for (int i = 0; i < values.size(); i++) {
      assertThat(values.get(i)).isEqualTo((long) i);
    }
    assertThat(barriers).containsExactly(TestBarriers.barrier(1), TestBarriers.barrier(2));
    assertThat(in.maxQueuedFrames())
        .as("receiver queue bounded by the window")
        .isBetween(1, WINDOW);
    assertThat(minCredits.get()).as("credits never negative").isGreaterThanOrEqualTo(0);
    // The channel returns a frame's credit when its last message is polled, just before this
    // consumer counts it, hence the one frame of slack.
    assertThat(maxInFlight.get())
        .as("frames sent but not consumed never exceed the window")
        .isLessThanOrEqualTo(WINDOW + 1);
    assertThat(out.framesSent()).isEqualTo(chunks + 2);
  }

  @Test
  void smallChunksAreBatchedIntoOneFrameClosedByTheBarrier() {
    List<ExchangeMessage.Frame> sent = new ArrayList<>();
    RemoteOutput out = new RemoteOutput(CH, WINDOW, 100, 1_000, sent::add);
    out.send(TestBarriers.barrier(1));
    for (int i = 0; i < 10; i++) {
      out.send(Message.of(chunk(i, 3)));
    }
    assertThat(sent).hasSize(1);
    out.send(TestBarriers.barrier(2));
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1).messages()).hasSize(11);
    assertThat(sent.get(1).messages().get(10)).isEqualTo(TestBarriers.barrier(2));
    assertThat(out.availableCredits()).isEqualTo(WINDOW - 2);
  }

  @Test
  void aProducerWithoutCreditFailsTheChannelAfterTheStallTimeout() {
    RemoteOutput out = new RemoteOutput(CH, 1, 1, 100, f -> {});
    out.send(TestBarriers.barrier(1));
    assertThatThrownBy(() -> out.send(TestBarriers.barrier(2)))
        .isInstanceOf(ChannelFailed.class)
        .hasMessageContaining("3->4")
        .hasMessageContaining("stalled");
  }

  @Test
  void aLostFrameFailsTheChannelOnTheConsumerSide() throws Exception {
    RemoteInput in = RemoteInput.bound(CH, WINDOW, c -> {});
    in.onFrame(new ExchangeMessage.Frame(CH, 0, List.of(TestBarriers.barrier(1))));
    in.onFrame(new ExchangeMessage.Frame(CH, 2, List.of(TestBarriers.barrier(3))));
    assertThat(in.poll()).isEqualTo(TestBarriers.barrier(1));
    assertThatThrownBy(in::poll)
        .isInstanceOf(ChannelFailed.class)
        .hasMessageContaining("3->4")
        .hasMessageContaining("expected frame 1 but got 2");
  }

  @Test
  void aCreditBeyondTheWindowIsAProtocolViolation() {
    RemoteOutput out = new RemoteOutput(CH, WINDOW, 1, 1_000, f -> {});
    assertThatThrownBy(() -> out.grant(1)).hasMessageContaining("exceed the window");
  }

  @Test
  void aLocalChannelBlocksItsProducerAtCapacity() throws Exception {
    LocalChannel ch = new LocalChannel(CH, 4);
    AtomicInteger sent = new AtomicInteger();
    Thread p =
        Threads.named("local-producer", true)
            .newThread(
                () -> {
                  for (int i = 0; i < 100; i++) {
                    ch.send(Message.of(chunk(i, 1)));
                    sent.incrementAndGet();
                  }
                });
    p.start();
    int consumed = 0;
    while (consumed < 100) {
      int queued = ch.size();
      assertThat(queued).isLessThanOrEqualTo(4);
      assertThat(sent.get()).isLessThanOrEqualTo(consumed + 4 + 1);
      if (ch.poll() != null) {
        consumed++;
      } else {
        Clock.system().sleepMillis(1);
      }
    }
    p.join(TimeUnit.SECONDS.toMillis(5));
    assertThat(sent.get()).isEqualTo(100);
  }
}
