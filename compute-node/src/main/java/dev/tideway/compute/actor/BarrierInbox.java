package dev.tideway.compute.actor;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.check.Checks;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The barriers the node injects into one source (or other root) actor, in injection order. The
 * node's control loop {@link #push}es; the source executor on the actor thread {@link #poll}s
 * between chunks (an executor blocked in {@link #poll(long)} or {@link #take()} that is interrupted
 * should throw {@link ActorInterrupted}). Unbounded on purpose: meta bounds the barriers in flight.
 *
 * <p>Thread-safe: one producer (the control loop), one consumer (the actor thread).
 */
public final class BarrierInbox implements dev.tideway.compute.executor.source.BarrierInbox {
  private final int actorId;
  private final LinkedBlockingQueue<Barrier> queue = new LinkedBlockingQueue<>();

  /** The last pushed epoch, so pushes are checked to rise (control-loop confined). */
  private long lastCurr = -1;

  /** Run after every push (a DML executor's doorbell); set once before the actor starts. */
  private volatile Runnable onPush = () -> {};

  public BarrierInbox(int actorId) {
    this.actorId = actorId;
  }

  public int actorId() {
    return actorId;
  }

  /** Queues {@code barrier}; its epoch must follow the previous one. */
  public void push(Barrier barrier) {
    Checks.checkState(
        lastCurr < 0 || barrier.prev() == lastCurr,
        "actor %s: injected barrier %s does not follow epoch %s",
        actorId,
        barrier,
        lastCurr);
    lastCurr = barrier.curr();
    queue.add(barrier);
    onPush.run();
  }

  /** Runs {@code listener} after every push from now on (wakes an executor waiting elsewhere). */
  public void onPush(Runnable listener) {
    this.onPush = listener;
  }

  /** The next barrier, or null when none is queued. */
  @Override
  public Barrier poll() {
    return queue.poll();
  }

  /** The next barrier, waiting up to {@code timeoutNanos}; null on timeout. */
  @Override
  public Barrier poll(long timeoutNanos) throws InterruptedException {
    return queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** The next barrier, waiting as long as it takes. */
  @Override
  public Barrier take() throws InterruptedException {
    return queue.take();
  }
}
