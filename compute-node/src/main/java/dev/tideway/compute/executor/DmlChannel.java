package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The hand-off of {@link DmlBatch}es from the statement executor (any thread) to one table's DML
 * actor. Bounded: a writer blocks in {@link #send} while the actor is behind, which back-pressures
 * {@code INSERT}s instead of buffering without limit.
 *
 * <p>A channel also carries a doorbell: every enqueued batch rings it, and so does whoever else has
 * something for the actor (the node's barrier inbox rings it on every injected barrier), so a DML
 * actor with nothing to do sleeps in {@link #awaitRing} instead of polling.
 *
 * <p>Thread-safe: the state shared between writers and the actor thread is the blocking queue and
 * the doorbell semaphore.
 */
public final class DmlChannel {
  private final int tableId;
  private final BlockingQueue<DmlBatch> queue;

  /** Counted rings, so a ring between the actor's last poll and its wait is never lost. */
  private final Semaphore rings = new Semaphore(0);

  public DmlChannel(int tableId, int capacity) {
    Checks.checkArgument(capacity > 0, "dml channel capacity must be > 0, got %s", capacity);
    this.tableId = tableId;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  /** Enqueues {@code batch}, waiting up to {@code timeoutMs}; false when the actor stayed full. */
  public boolean send(DmlBatch batch, long timeoutMs) throws InterruptedException {
    checkTable(batch);
    if (queue.offer(batch, timeoutMs, TimeUnit.MILLISECONDS)) {
      rings.release();
      return true;
    }
    return false;
  }

  /** Enqueues {@code batch} without waiting; false when the channel is full. */
  public boolean offer(DmlBatch batch) {
    checkTable(batch);
    if (queue.offer(batch)) {
      rings.release();
      return true;
    }
    return false;
  }

  /**
   * Batches that can be enqueued now without waiting. Exact for a single writer (the node's control
   * loop), which may then offer that many batches without any failing.
   */
  public int remainingCapacity() {
    return queue.remainingCapacity();
  }

  public int tableId() {
    return tableId;
  }

  /** Wakes the actor if it waits in {@link #awaitRing} (a barrier arrived for it). */
  public void ring() {
    rings.release();
  }

  /**
   * Waits up to {@code timeoutNanos} for a ring, then forgets all pending rings (actor thread).
   *
   * @throws InterruptedException when the actor is dropped while waiting
   */
  void awaitRing(long timeoutNanos) throws InterruptedException {
    if (rings.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS)) {
      rings.drainPermits();
    }
  }

  /** The next batch, or null when none is waiting (never blocks: the actor owns this side). */
  DmlBatch poll() {
    return queue.poll();
  }

  private void checkTable(DmlBatch batch) {
    Checks.checkArgument(
        batch.tableId() == tableId,
        "batch for table %s sent to the channel of table %s",
        batch.tableId(),
        tableId);
  }
}
