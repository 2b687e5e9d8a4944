package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The hand-off of {@link DmlBatch}es from the statement executor (any thread) to one table's DML
 * actor. Bounded: a writer blocks in {@link #send} while the actor is behind, which back-pressures
 * {@code INSERT}s instead of buffering without limit.
 *
 * <p>Thread-safe: the only state shared between the writer and the actor thread is the blocking
 * queue.
 */
public final class DmlChannel {
  private final int tableId;
  private final BlockingQueue<DmlBatch> queue;

  public DmlChannel(int tableId, int capacity) {
    Checks.checkArgument(capacity > 0, "dml channel capacity must be > 0, got %s", capacity);
    this.tableId = tableId;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  /** Enqueues {@code batch}, waiting up to {@code timeoutMs}; false when the actor stayed full. */
  public boolean send(DmlBatch batch, long timeoutMs) throws InterruptedException {
    Checks.checkArgument(
        batch.tableId() == tableId,
        "batch for table %s sent to the channel of table %s",
        batch.tableId(),
        tableId);
    return queue.offer(batch, timeoutMs, TimeUnit.MILLISECONDS);
  }

  /** The next batch, or null when none is waiting (never blocks: the actor owns this side). */
  DmlBatch poll() {
    return queue.poll();
  }
}
