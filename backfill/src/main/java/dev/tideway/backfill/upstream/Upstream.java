package dev.tideway.backfill.upstream;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.exec.Threads;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;

/**
 * The upstream of a backfill with a non-blocking {@link #poll}: direct when the upstream is a
 * {@link PollableExecutor}, otherwise through a pump thread that pulls the upstream into a small
 * bounded queue (the queue's bound keeps back-pressure: the pump blocks when the backfill is
 * behind). With a pump, the upstream executor is confined to the pump thread; {@link #close}
 * interrupts it.
 *
 * <p>{@link #poll} and {@link #next} are called by the backfill's actor thread only.
 */
public final class Upstream implements AutoCloseable {
  private static final ThreadFactory PUMPS = Threads.named("backfill-upstream-pump", true);
  private static final int QUEUE = 16;

  /** Marks the end of the upstream stream in the pump queue. */
  private static final Object END = new Object();

  private final Executor upstream;
  private final PollableExecutor pollable;
  private BlockingQueue<Object> queue;
  private Thread pump;
  private boolean ended;

  public Upstream(Executor upstream) {
    this.upstream = Checks.checkNotNull(upstream, "upstream executor");
    this.pollable = upstream instanceof PollableExecutor p ? p : null;
  }

  public Executor executor() {
    return upstream;
  }

  /** A ready message, or null when none is ready (or the stream ended: see {@link #ended}). */
  public Message poll() {
    if (pollable != null) {
      return pollable.poll();
    }
    startPump();
    return unwrap(queue.poll());
  }

  /** The next message, blocking; null when the stream ended. */
  public Message next() {
    if (ended) {
      return null;
    }
    if (pollable != null) {
      Message m = pollable.next();
      ended = m == null;
      return m;
    }
    startPump();
    try {
      return unwrap(queue.take());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the backfill upstream", e);
    }
  }

  /** True once the upstream returned null (finite test upstreams, stopped actors). */
  public boolean ended() {
    return ended;
  }

  private Message unwrap(Object o) {
    if (o == null) {
      return null;
    }
    if (o == END) {
      ended = true;
      return null;
    }
    if (o instanceof RuntimeException e) {
      throw e;
    }
    if (o instanceof Error e) {
      throw e;
    }
    return (Message) o;
  }

  private void startPump() {
    if (pump != null) {
      return;
    }
    queue = new ArrayBlockingQueue<>(QUEUE);
    pump = PUMPS.newThread(this::pumpLoop);
    pump.start();
  }

  private void pumpLoop() {
    try {
      while (true) {
        Message m = upstream.next();
        queue.put(m == null ? END : m);
        if (m == null) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      try {
        queue.put(e); // the actor thread rethrows it on its next poll or next
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    if (pump != null) {
      pump.interrupt();
    }
  }
}
