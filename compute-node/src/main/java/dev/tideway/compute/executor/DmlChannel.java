package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The hand-off of DML chunks from the node's control loop to one table's DML actor.
 *
 * <p>Not bounded here: every writer keeps a bounded window of chunks unanswered (a chunk is
 * answered when its actor takes it), so what a channel holds is bounded by its writers' windows,
 * and a chunk is never refused for space (a refused chunk sent again after a later one was taken
 * would reorder a statement's rows).
 *
 * <p>A channel also carries a doorbell: every enqueued chunk rings it, and so does whoever else has
 * something for the actor (the node's barrier inbox rings it on every injected barrier), so a DML
 * actor with nothing to do sleeps in {@link #awaitRing} instead of polling.
 *
 * <p>Every chunk carries a future the actor completes with the epoch the chunk joins when it takes
 * it ({@link #poll(long)}), or that {@link #discard} fails when the actor goes away first: a write
 * acknowledged with its epoch can be checked against recoveries (FLUSH), and a discarded one never
 * reached any epoch, so it is safe to send again. Once discarded, a channel is closed: a chunk
 * offered later fails at once instead of waiting for an actor that will never take it.
 *
 * <p>Thread-safe: writers and the actor thread share the queue under this object's lock; each
 * queued future is completed by whichever side dequeues it, outside the lock.
 */
public final class DmlChannel {
  private final int tableId;
  private final List<?> types;
  private final ArrayDeque<Queued> queue = new ArrayDeque<>();
  private boolean closed;
  private String closedBecause;

  /** A chunk and the future of the epoch it joins. */
  private record Queued(StreamChunk chunk, CompletableFuture<Long> epoch) {}

  /** Counted rings, so a ring between the actor's last poll and its wait is never lost. */
  private final Semaphore rings = new Semaphore(0);

  /** A channel for chunks of table {@code tableId}, whose columns are of {@code types}. */
  public DmlChannel(int tableId, List<?> types) {
    this.tableId = tableId;
    this.types = List.copyOf(types);
  }

  /**
   * Enqueues {@code chunk}. {@code joined} completes with the epoch the chunk joins, or fails with
   * {@link DiscardedWriteException} when it is {@linkplain #discard discarded} (at once when the
   * channel already was).
   */
  public void offer(StreamChunk chunk, CompletableFuture<Long> joined) {
    Checks.checkArgument(
        chunk.types().equals(types),
        "table %s: chunk of types %s, the table's are %s",
        tableId,
        chunk.types(),
        types);
    String refused;
    synchronized (this) {
      refused = closed ? closedBecause : null;
      if (refused == null) {
        queue.add(new Queued(chunk, joined));
      }
    }
    if (refused != null) {
      joined.completeExceptionally(new DiscardedWriteException(refused));
      return;
    }
    rings.release();
  }

  /**
   * Fails every chunk still queued and every chunk offered from now on (its actor is gone: dropped,
   * exited or reset): none of them joined an epoch. Chunks the actor already took keep their epoch.
   */
  public void discard(String reason) {
    ArrayDeque<Queued> dropped;
    synchronized (this) {
      closed = true;
      closedBecause = reason;
      dropped = new ArrayDeque<>(queue);
      queue.clear();
    }
    dropped.forEach(q -> q.epoch().completeExceptionally(new DiscardedWriteException(reason)));
  }

  /** A queued write was dropped before its actor took it: it is in no epoch. */
  public static final class DiscardedWriteException extends RuntimeException {
    public DiscardedWriteException(String reason) {
      super(reason);
    }
  }

  /** Chunks queued and not taken yet. */
  public synchronized int queued() {
    return queue.size();
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
   * The next chunk, or null when none is waiting (never blocks: the actor owns this side); its
   * writer hears that it joined {@code epoch}.
   */
  StreamChunk poll(long epoch) {
    Queued q;
    synchronized (this) {
      q = queue.poll();
    }
    if (q == null) {
      return null;
    }
    q.epoch().complete(epoch);
    return q.chunk();
  }
}
