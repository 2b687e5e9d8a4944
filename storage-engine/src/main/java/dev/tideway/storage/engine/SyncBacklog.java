package dev.tideway.storage.engine;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StorageException;
import io.prometheus.metrics.core.metrics.Counter;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Write backpressure from the sync queue. Syncs run one at a time; when writers seal epochs faster
 * than syncs make them durable, requested syncs queue up and every barrier waits behind all of them
 * (Nexmark q7 at ~400k rows/s of join state: barrier latency 3–8 s and rising). A writer that seals
 * an epoch therefore first waits while more than {@code maxPending} syncs are requested but not
 * finished: its actor holds the barrier, stops pulling input, and the sources slow to what syncs
 * can persist. Latency stays near {@code maxPending + 1} syncs.
 *
 * <p>Deadlock freedom: the wait is only on syncs already requested, and a requested sync needs
 * nothing from writers (its data is sealed), so every wait ends when the sync thread catches up (or
 * a sync fails: {@link #finished} runs either way). A sync not yet requested, which may need the
 * waiting writer's next barrier, is never waited on.
 *
 * <p>Thread-safe: {@link #requested} and {@link #finished} come from the syncing caller and the
 * sync thread, {@link #awaitRoom} from any writer thread.
 */
final class SyncBacklog {
  private final int maxPending;
  private final Clock clock;
  private final Counter stallSeconds;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition finished = lock.newCondition();
  private int pending;
  private boolean closed;

  /**
   * @param maxPending requested-but-unfinished syncs a sealing writer tolerates; negative disables
   *     the wait
   * @param stallSeconds the writers' total wait, in seconds
   */
  SyncBacklog(int maxPending, Clock clock, Counter stallSeconds) {
    this.maxPending = maxPending;
    this.clock = clock;
    this.stallSeconds = stallSeconds;
  }

  /** A sync was requested (before it is queued, so a writer never misses it). */
  void requested() {
    lock.lock();
    try {
      pending++;
    } finally {
      lock.unlock();
    }
  }

  /** A requested sync ended, durable or failed. */
  void finished() {
    lock.lock();
    try {
      Checks.checkState(pending > 0, "sync finished with no sync pending");
      pending--;
      finished.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks the calling writer while more than {@code maxPending} syncs are pending. Throws, without
   * waiting further, when the thread is interrupted (its actor is being dropped) or {@code stale}
   * turns true (the uncommitted writes were cleared for a recovery, and {@link #wakeAll} woke the
   * waiters): such a writer belongs to an aborted epoch and must not go on writing.
   */
  void awaitRoom(BooleanSupplier stale) {
    if (maxPending < 0) {
      return;
    }
    lock.lock();
    try {
      if (pending <= maxPending || closed) {
        return;
      }
      long t0 = clock.nanoTime();
      try {
        while (pending > maxPending && !closed) {
          if (stale.getAsBoolean()) {
            throw new StorageException(
                StorageException.Reason.PROTOCOL,
                "uncommitted writes were cleared (recovery) while this writer waited for the"
                    + " sync queue; its epoch is aborted");
          }
          finished.await();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException(
            StorageException.Reason.CLOSED,
            "interrupted while waiting for the sync queue (" + pending + " syncs pending)");
      } finally {
        stallSeconds.inc((clock.nanoTime() - t0) / 1e9);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiting writer to check whether it went stale (a recovery cleared the buffer). */
  void wakeAll() {
    lock.lock();
    try {
      finished.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Releases every waiting writer for good: the engine is closing. */
  void close() {
    lock.lock();
    try {
      closed = true;
      finished.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Syncs requested and not finished. */
  int pending() {
    lock.lock();
    try {
      return pending;
    } finally {
      lock.unlock();
    }
  }
}
