package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.chunk.StreamChunkSerializer;
import dev.tideway.compute.actor.ActorInterrupted;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sending end of a channel to another node. Chunks are batched into a {@link
 * ExchangeMessage.Frame} until it holds {@code batchRows} rows or about {@code frameBytes} encoded
 * bytes; a barrier or watermark closes the frame at once, so it travels in band without waiting. A
 * chunk larger than {@code frameBytes} is cut into chunks that fit (rows never split; a single row
 * larger than a frame fails the channel, naming its size). Each frame costs one credit; the
 * producer blocks while it has none and fails the channel after {@code stallTimeoutMs} without
 * credit.
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
  private final long frameBytes;
  private final long stallTimeoutMs;
  private final Consumer<ExchangeMessage.Frame> transport;
  private final Semaphore credits;

  // actor-thread state
  private final List<Message> batch = new ArrayList<>();
  private int batchedRows;
  private long batchedBytes;
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
    this(channel, window, batchRows, DEFAULT_FRAME_BYTES, stallTimeoutMs, transport);
  }

  /** Frames of at most about 1 MiB: a quarter of Pekko's default large frame. */
  public static final long DEFAULT_FRAME_BYTES = 1 << 20;

  /**
   * @param frameBytes about this many encoded bytes per frame at most (well below the transport's
   *     largest message: the estimate is an upper bound, the frame adds its header)
   */
  public RemoteOutput(
      long channel,
      int window,
      int batchRows,
      long frameBytes,
      long stallTimeoutMs,
      Consumer<ExchangeMessage.Frame> transport) {
    Checks.checkArgument(window >= 1, "channel %s: window %s", ChannelId.toString(channel), window);
    Checks.checkArgument(
        frameBytes >= 1024,
        "channel %s: frame of %s bytes",
        ChannelId.toString(channel),
        frameBytes);
    this.channel = channel;
    this.window = window;
    this.frameBytes = frameBytes;
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
      long bytes = StreamChunkSerializer.estimatedBytes(chunk);
      if (bytes > frameBytes) {
        sendCut(chunk);
        return;
      }
      if (batchedBytes + bytes > frameBytes) {
        flush();
      }
      batch.add(chunk == c.chunk() ? c : Message.of(chunk));
      batchedRows += chunk.size();
      batchedBytes += bytes;
      if (batchedRows >= batchRows || batchedBytes >= frameBytes) {
        flush();
      }
      return;
    }
    batch.add(message);
    flush();
  }

  /** Sends a chunk too large for one frame as chunks that fit, one frame each, rows in order. */
  private void sendCut(StreamChunk chunk) {
    flush();
    StreamChunkBuilder b = null;
    long bytes = 0;
    for (int i = 0; i < chunk.size(); i++) {
      long row = rowBytes(chunk, i);
      if (row > frameBytes) {
        throw new ChannelFailed(
            "channel "
                + ChannelId.toString(channel)
                + ": a row of about "
                + row
                + " bytes is larger than an exchange frame ("
                + frameBytes
                + " bytes; raise pekko.remote.artery.advanced.maximum-large-frame-size)");
      }
      // never cut between U- and its U+
      if (b != null && bytes + row > frameBytes && chunk.op(i) != Op.UPDATE_INSERT) {
        batch.add(Message.of(b.build()));
        batchedRows += b.size();
        flush();
        b = null;
        bytes = 0;
      }
      if (b == null) {
        b = new StreamChunkBuilder(chunk.types(), 64);
      }
      b.appendRowFrom(chunk.op(i), chunk, i);
      bytes += row;
    }
    if (b != null) {
      batch.add(Message.of(b.build()));
      batchedRows += b.size();
      flush();
    }
  }

  private static long rowBytes(StreamChunk chunk, int i) {
    long bytes = 2;
    for (int c = 0; c < chunk.columnCount(); c++) {
      bytes += StreamChunkSerializer.estimatedBytes(chunk.column(c).get(i));
    }
    return bytes;
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
    batchedBytes = 0;
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
