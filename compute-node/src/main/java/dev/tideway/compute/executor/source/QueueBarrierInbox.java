package dev.tideway.compute.executor.source;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.check.Checks;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BarrierInbox} on an unbounded blocking queue (the barrier manager bounds the barriers in
 * flight, so the queue stays short). {@link #close()} ends the stream once drained.
 *
 * <p>Thread-safe: the queue is the only shared state; {@code closed} is volatile.
 */
public final class QueueBarrierInbox implements BarrierInbox {
  private static final long CLOSED_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final LinkedBlockingQueue<Barrier> queue = new LinkedBlockingQueue<>();
  private volatile boolean closed;

  /** Delivers {@code barrier} to the source. */
  public void inject(Barrier barrier) {
    Checks.checkState(!closed, "barrier %s injected into a closed inbox", barrier);
    queue.add(barrier);
  }

  /** No barrier will follow the ones queued. */
  public void close() {
    closed = true;
  }

  @Override
  public Barrier poll() {
    return queue.poll();
  }

  @Override
  public Barrier poll(long timeoutNanos) throws InterruptedException {
    return queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public Barrier take() throws InterruptedException {
    while (true) {
      Barrier b = queue.poll(CLOSED_POLL_NANOS, TimeUnit.NANOSECONDS);
      if (b != null || (closed && queue.isEmpty())) {
        return b;
      }
    }
  }
}
