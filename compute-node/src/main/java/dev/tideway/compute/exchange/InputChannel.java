package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.compute.actor.Doorbell;

/**
 * The receiving end of one channel, read by the one merge thread of the downstream actor. Never
 * blocks: {@link #poll()} returns null when nothing is there, and the merge waits on the {@link
 * Doorbell} it {@link #attach}ed.
 */
public interface InputChannel {
  /** The channel ({@link ChannelId}). */
  long channel();

  /**
   * The next message in channel order, or null when none is ready. Throws {@link ChannelFailed}.
   */
  Message poll();

  /** Rings {@code doorbell} on every message pushed from now on. */
  void attach(Doorbell doorbell);
}
