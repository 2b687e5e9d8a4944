package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.protocol.compute.DmlBatch;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
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
 * <p>Every batch carries a future the actor completes with the epoch the batch joins when it takes
 * the batch ({@link #poll(long)}), or that {@link #discard} fails when the actor goes away first: a
 * write acknowledged with its epoch can be checked against recoveries (FLUSH), and a discarded one
 * never reached any epoch, so it is safe to send again.
 *
 * <p>Thread-safe: the state shared between writers and the actor thread is the blocking queue and
 * the doorbell semaphore; each queued future is completed by whichever side dequeues it.
 */
public final class DmlChannel {
  private final int tableId;
  private final BlockingQueue<Queued> queue;

  /** A batch and the future of the epoch it joins. */
  private record Queued(DmlBatch batch, CompletableFuture<Long> epoch) {}

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
    if (queue.offer(
        new Queued(batch, new CompletableFuture<>()), timeoutMs, TimeUnit.MILLISECONDS)) {
      rings.release();
      return true;
    }
    return false;
  }

  /** Enqueues {@code batch} without waiting; false when the channel is full. */
  public boolean offer(DmlBatch batch) {
    return offer(batch, new CompletableFuture<>());
  }

  /**
   * Enqueues {@code batch} without waiting; false when the channel is full. {@code joined}
   * completes with the epoch the batch joins, or fails when it is {@linkplain #discard discarded}.
   */
  public boolean offer(DmlBatch batch, CompletableFuture<Long> joined) {
    checkTable(batch);
    if (queue.offer(new Queued(batch, joined))) {
      rings.release();
      return true;
    }
    return false;
  }

  /**
   * Fails every batch still queued (its actor is gone: dropped, exited or reset): none of them
   * joined an epoch. Batches the actor already took keep their epoch.
   */
  public void discard(String reason) {
    Queued q;
    while ((q = queue.poll()) != null) {
      q.epoch().completeExceptionally(new DiscardedWriteException(reason));
    }
  }

  /** A queued write was dropped before its actor took it: it is in no epoch. */
  public static final class DiscardedWriteException extends RuntimeException {
    public DiscardedWriteException(String reason) {
      super(reason);
    }
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

  /**
   * The next batch, or null when none is waiting (never blocks: the actor owns this side); its
   * writer hears that it joined {@code epoch}.
   */
  DmlBatch poll(long epoch) {
    Queued q = queue.poll();
    if (q == null) {
      return null;
    }
    q.epoch().complete(epoch);
    return q.batch();
  }

  private void checkTable(DmlBatch batch) {
    Checks.checkArgument(
        batch.tableId() == tableId,
        "batch for table %s sent to the channel of table %s",
        batch.tableId(),
        tableId);
  }
}
