package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.compute.actor.Doorbell;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The receiving end of a channel from another node. The node's {@link ExchangeEndpoint} actor
 * appends frames with {@link #onFrame} (never blocking); the downstream merge thread {@link #poll}s
 * messages and returns a {@link ExchangeMessage.Credit} each time it has consumed {@code
 * grantBatch} frames. The queue is unbounded on purpose: the sender's credits bound it to the
 * window, and that bound is checked on every frame.
 *
 * <p>Failure: a sequence gap or a frame beyond the window marks the channel failed; the next {@link
 * #poll} throws {@link ChannelFailed}. The endpoint never throws.
 *
 * <p>Thread confinement: {@link #onFrame} on the endpoint actor, {@link #poll} on the merge thread;
 * they share only the concurrent queue, the counter and the failure.
 */
public final class RemoteInput implements InputChannel {
  private final long channel;
  private final int window;
  private final int grantBatch;

  /** Set when the downstream actor is built; frames may arrive (but are not consumed) before. */
  private volatile Consumer<ExchangeMessage.Credit> creditTransport;

  private final ConcurrentLinkedQueue<ExchangeMessage.Frame> frames = new ConcurrentLinkedQueue<>();

  /** Frames received and not yet fully consumed; never above the window. */
  private final AtomicInteger queuedFrames = new AtomicInteger();

  private volatile String failure;
  private volatile Doorbell doorbell;

  // endpoint-actor state
  private long expectedSeq;
  private int maxQueuedFrames;

  // merge-thread state
  private final ArrayDeque<Message> current = new ArrayDeque<>();
  private int consumedSinceGrant;

  /**
   * @param window the sender's credit window (frames)
   */
  public RemoteInput(long channel, int window) {
    Checks.checkArgument(window >= 1, "channel %s: window %s", ChannelId.toString(channel), window);
    this.channel = channel;
    this.window = window;
    this.grantBatch = Math.max(1, window / 4);
  }

  /** A remote input whose credits go to {@code creditTransport}. */
  public static RemoteInput bound(
      long channel, int window, Consumer<ExchangeMessage.Credit> creditTransport) {
    RemoteInput in = new RemoteInput(channel, window);
    in.bindCredits(creditTransport);
    return in;
  }

  /**
   * Sets where credits go (the sending node's endpoint, never blocking). Must happen before the
   * first {@link #poll}: the downstream actor is built, and binds, before it starts.
   */
  public void bindCredits(Consumer<ExchangeMessage.Credit> creditTransport) {
    this.creditTransport = creditTransport;
  }

  @Override
  public long channel() {
    return channel;
  }

  /** Frames queued now, not yet consumed. */
  public int queuedFrames() {
    return queuedFrames.get();
  }

  /** The most frames ever queued at once (endpoint-actor view); at most the window. */
  public int maxQueuedFrames() {
    return maxQueuedFrames;
  }

  /** Appends a frame (endpoint actor). */
  public void onFrame(ExchangeMessage.Frame frame) {
    if (failure != null) {
      return;
    }
    if (frame.seq() != expectedSeq) {
      fail("expected frame " + expectedSeq + " but got " + frame.seq() + " (a frame was lost)");
      return;
    }
    expectedSeq++;
    int queued = queuedFrames.incrementAndGet();
    if (queued > window) {
      fail("holds " + queued + " frames, more than the window " + window);
      return;
    }
    maxQueuedFrames = Math.max(maxQueuedFrames, queued);
    frames.add(frame);
    ring();
  }

  /** Marks the channel failed (peer gone, lost frame); the merge thread throws on its next poll. */
  public void fail(String reason) {
    if (failure == null) {
      failure = "channel " + ChannelId.toString(channel) + " failed: " + reason;
    }
    ring();
  }

  @Override
  public Message poll() {
    if (current.isEmpty() && !nextFrame()) {
      return null;
    }
    Message m = current.poll();
    if (current.isEmpty()) {
      frameConsumed();
    }
    return m;
  }

  private boolean nextFrame() {
    ExchangeMessage.Frame frame = frames.poll();
    if (frame == null) {
      String f = failure;
      if (f != null) {
        throw new ChannelFailed(f); // after every frame that arrived in order
      }
      return false;
    }
    List<Message> ms = frame.messages();
    current.addAll(ms);
    return true;
  }

  private void frameConsumed() {
    queuedFrames.decrementAndGet();
    if (++consumedSinceGrant == grantBatch) {
      consumedSinceGrant = 0;
      Consumer<ExchangeMessage.Credit> t = creditTransport;
      Checks.checkState(
          t != null,
          "channel %s: consumed before its credits were bound",
          ChannelId.toString(channel));
      t.accept(new ExchangeMessage.Credit(channel, grantBatch));
    }
  }

  @Override
  public void attach(Doorbell doorbell) {
    this.doorbell = doorbell;
  }

  private void ring() {
    Doorbell d = doorbell;
    if (d != null) {
      d.ring();
    }
  }

  @Override
  public String toString() {
    return "RemoteInput(" + ChannelId.toString(channel) + ", " + queuedFrames() + " queued)";
  }
}
