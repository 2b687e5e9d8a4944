package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.compute.actor.ActorInterrupted;
import dev.tideway.compute.actor.Doorbell;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A channel between two actors on the same node: a bounded queue of {@code capacity} messages.
 * Messages (chunks with their visibility) pass by reference. A full queue blocks the producer.
 *
 * <p>Thread-safe: one producer thread, one consumer thread.
 */
public final class LocalChannel implements InputChannel, OutputChannel {
  private final long channel;
  private final int capacity;
  private final ArrayBlockingQueue<Message> queue;
  private volatile Doorbell doorbell;

  public LocalChannel(long channel, int capacity) {
    Checks.checkArgument(
        capacity >= 1,
        "channel %s: capacity must be >= 1, got %s",
        ChannelId.toString(channel),
        capacity);
    this.channel = channel;
    this.capacity = capacity;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  @Override
  public long channel() {
    return channel;
  }

  public int capacity() {
    return capacity;
  }

  /** Messages queued now (never above {@link #capacity()}). */
  public int size() {
    return queue.size();
  }

  @Override
  public void send(Message message) {
    try {
      queue.put(message);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActorInterrupted(
          "interrupted sending on channel " + ChannelId.toString(channel), e);
    }
    Doorbell d = doorbell;
    if (d != null) {
      d.ring();
    }
  }

  @Override
  public Message poll() {
    return queue.poll();
  }

  @Override
  public void attach(Doorbell doorbell) {
    this.doorbell = doorbell;
  }

  @Override
  public String toString() {
    return "LocalChannel(" + ChannelId.toString(channel) + ", " + size() + "/" + capacity + ")";
  }
}
