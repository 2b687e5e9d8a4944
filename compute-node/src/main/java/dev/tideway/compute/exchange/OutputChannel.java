package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;

/**
 * The sending end of one channel, written by the one upstream actor thread. {@link #send} blocks
 * while the channel is full (that is the back-pressure) and throws {@link
 * dev.tideway.compute.actor.ActorInterrupted} when the actor is dropped meanwhile. A message is
 * immutable once sent.
 */
public interface OutputChannel {
  /** The channel ({@link ChannelId}). */
  long channel();

  /** Sends {@code message}; barriers and watermarks are delivered no later than the next send. */
  void send(Message message);
}
