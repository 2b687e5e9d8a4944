package dev.tideway.compute.actor;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes an actor thread waiting for input on several channels: every push into one of the channels
 * attached to it rings; the waiter waits only after a full round of polls found nothing. Rings are
 * counted, so a ring between the last poll and the wait is never lost.
 *
 * <p>A merge with a private doorbell blocks in its own {@code next} until one of its channels has a
 * message. An actor whose plan has several merges gives them one shared doorbell ({@link
 * ExecutorBuildContext#inputBell}): each merge then returns null for "nothing now" and the executor
 * that reads them (a join) waits on the shared doorbell, so it is woken by whichever input moves
 * first instead of blocking on one while the other fills.
 *
 * <p>Thread-safe: producers ring, the one actor thread waits.
 */
public final class Doorbell {
  /** Upper bound on one wait of an input reader, so a lost ring costs at most this much latency. */
  public static final long WAIT_MS = 50;

  private final Semaphore rings = new Semaphore(0);

  public void ring() {
    rings.release();
  }

  /** Waits up to {@code timeoutMs} for a ring, then forgets all pending rings. */
  public void await(long timeoutMs) {
    try {
      if (rings.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS)) {
        rings.drainPermits();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActorInterrupted("interrupted while waiting for input", e);
    }
  }
}
