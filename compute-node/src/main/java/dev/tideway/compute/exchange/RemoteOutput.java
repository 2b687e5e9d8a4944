package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.compute.actor.ActorInterrupted;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sending end of a channel to another node. Chunks are batched into a {@link
 * ExchangeMessage.Frame} until it holds {@code batchRows} rows; a barrier or watermark closes the
 * frame at once, so it travels in band without waiting. Each frame costs one credit; the producer
 * blocks while it has none and fails the channel after {@code stallTimeoutMs} without credit.
 *
 * <p>Overview: credits are permits of a {@link Semaphore} sized to the window. The receiver returns
 * credits with {@link #grant} (called on the node's exchange endpoint actor) after it consumed
 * frames. Invariants, checked on both paths: permits never exceed the window (a grant beyond what
 * was sent is a protocol bug), and frames are numbered without gaps.
 *
 * <p>Thread confinement: {@link #send} on the upstream actor thread; {@link #grant} on the endpoint
 * actor. Nothing else is shared.
 */
public final class RemoteOutput implements OutputChannel {
  private final long channel;
  private final int window;
  private final int batchRows;
  private final long stallTimeoutMs;
  private final Consumer<ExchangeMessage.Frame> transport;
  private final Semaphore credits;

  // actor-thread state
  private final List<Message> batch = new ArrayList<>();
  private int batchedRows;
  private long nextSeq;

  /**
   * @param window credits (frames in flight) granted at start
   * @param batchRows rows after which a frame is sent without waiting for a barrier
   * @param transport sends a frame to the receiving node (Pekko {@code tell}; never blocks)
   */
  public RemoteOutput(
      long channel,
      int window,
      int batchRows,
      long stallTimeoutMs,
      Consumer<ExchangeMessage.Frame> transport) {
    Checks.checkArgument(window >= 1, "channel %s: window %s", ChannelId.toString(channel), window);
    this.channel = channel;
    this.window = window;
    this.batchRows = Math.max(1, batchRows);
    this.stallTimeoutMs = stallTimeoutMs;
    this.transport = transport;
    this.credits = new Semaphore(window);
  }

  @Override
  public long channel() {
    return channel;
  }

  /** Credits the producer holds now: {@code 0 <= credits <= window}. */
  public int availableCredits() {
    return credits.availablePermits();
  }

  public long framesSent() {
    return nextSeq;
  }

  @Override
  public void send(Message message) {
    if (message instanceof Message.Chunk c) {
      var chunk = c.chunk().compact();
      if (chunk.size() == 0) {
        return;
      }
      batch.add(chunk == c.chunk() ? c : Message.of(chunk));
      batchedRows += chunk.size();
      if (batchedRows >= batchRows) {
        flush();
      }
      return;
    }
    batch.add(message);
    flush();
  }

  /** Sends the pending batch as one frame, waiting for a credit. */
  public void flush() {
    if (batch.isEmpty()) {
      return;
    }
    acquireCredit();
    ExchangeMessage.Frame frame = new ExchangeMessage.Frame(channel, nextSeq++, batch);
    batch.clear();
    batchedRows = 0;
    transport.accept(frame);
  }

  private void acquireCredit() {
    try {
      if (!credits.tryAcquire(stallTimeoutMs, TimeUnit.MILLISECONDS)) {
        throw new ChannelFailed(
            "channel "
                + ChannelId.toString(channel)
                + " stalled: no credit for "
                + stallTimeoutMs
                + " ms after frame "
                + (nextSeq - 1));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActorInterrupted("interrupted waiting for credit on " + this, e);
    }
  }

  /** The receiver consumed {@code frames} frames: the producer may send that many more. */
  public void grant(int frames) {
    Checks.checkState(
        credits.availablePermits() + frames <= window,
        "channel %s: credit of %s would exceed the window %s (holding %s)",
        ChannelId.toString(channel),
        frames,
        window,
        credits.availablePermits());
    credits.release(frames);
  }

  @Override
  public String toString() {
    return "RemoteOutput(" + ChannelId.toString(channel) + ", credits " + availableCredits() + ")";
  }
}
