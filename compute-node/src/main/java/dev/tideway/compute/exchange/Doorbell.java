package dev.tideway.compute.exchange;

import dev.tideway.compute.actor.ActorInterrupted;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes a {@link MergeExecutor} blocked on several channels: every push into one of its channels
 * rings; the merge waits only after a full round of polls found nothing. Rings are counted, so a
 * ring between the last poll and the wait is never lost.
 *
 * <p>Thread-safe: producers ring, the one merge thread waits.
 */
public final class Doorbell {
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
