package dev.tideway.backfill.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/** A plain (blocking) upstream is pumped: poll never blocks, order is kept, errors surface. */
class UpstreamTest {
  /** A blocking executor fed by the test; a RuntimeException in the queue is thrown. */
  private static final class Blocking implements Executor {
    final LinkedBlockingQueue<Object> q = new LinkedBlockingQueue<>();

    @Override
    public Schema schema() {
      return Schema.ofTypes(DataType.BIGINT);
    }

    @Override
    public ExecutorInfo info() {
      return new ExecutorInfo(1, 1, "Blocking");
    }

    @Override
    public Message next() {
      try {
        Object o = q.take();
        if (o instanceof RuntimeException e) {
          throw e;
        }
        return o == Boolean.FALSE ? null : (Message) o;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static Barrier barrier(long curr) {
    return Barrier.of(new EpochPair(curr, curr - 1), BarrierKind.CHECKPOINT);
  }

  @Test
  void pumpsInOrderAndEnds() {
    Blocking b = new Blocking();
    try (Upstream up = new Upstream(b)) {
      assertThat(up.poll()).isNull(); // nothing yet, and poll did not block
      b.q.add(barrier(2));
      b.q.add(barrier(3));
      assertThat(up.next()).isEqualTo(barrier(2));
      Message m;
      while ((m = up.poll()) == null) {
        Thread.onSpinWait();
      }
      assertThat(m).isEqualTo(barrier(3));
      b.q.add(Boolean.FALSE);
      assertThat(up.next()).isNull();
      assertThat(up.ended()).isTrue();
    }
  }

  @Test
  void upstreamFailureIsRethrownOnTheActorThread() {
    Blocking b = new Blocking();
    try (Upstream up = new Upstream(b)) {
      b.q.add(new IllegalStateException("channel to actor 9 failed"));
      assertThatThrownBy(up::next).hasMessageContaining("actor 9");
    }
  }
}
