package dev.tideway.compute.executor.source;

import dev.tideway.barrier.message.Barrier;

/**
 * The barriers injected into a source actor (by the node's local barrier manager). A source keeps
 * producing rows while no barrier waits, so besides a blocking {@link #take()} it needs a
 * non-blocking {@link #poll()} and a timed one for rate-limited waits.
 *
 * <p>The injecting thread writes, the source actor's thread reads; implementations are thread-safe.
 */
public interface BarrierInbox {
  /** The next barrier if one waits, else null at once. */
  Barrier poll();

  /** The next barrier, waiting up to {@code timeoutNanos}; null when none came. */
  Barrier poll(long timeoutNanos) throws InterruptedException;

  /** The next barrier, waiting as long as needed; null once the inbox is closed and empty. */
  Barrier take() throws InterruptedException;
}
