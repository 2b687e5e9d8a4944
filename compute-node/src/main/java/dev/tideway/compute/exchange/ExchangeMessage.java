package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import java.util.List;

/** What two nodes' {@link ExchangeEndpoint}s say to each other about one channel. */
public sealed interface ExchangeMessage extends WireMessage
    permits ExchangeMessage.Frame, ExchangeMessage.Credit {

  /** The channel this message belongs to ({@link ChannelId}). */
  long channel();

  /**
   * Upstream to downstream: a batch of messages in channel order. Costs the sender one credit.
   *
   * @param seq frame number on the channel, from 0, no gaps (a gap means Artery dropped a frame)
   * @param messages chunks (compacted), barriers and watermarks; never empty; never mutated once
   *     sent
   */
  record Frame(long channel, long seq, List<Message> messages) implements ExchangeMessage {
    public Frame {
      Checks.checkArgument(
          !messages.isEmpty(), "channel %s: empty frame %s", ChannelId.toString(channel), seq);
      messages = List.copyOf(messages);
    }

    @Override
    public String toString() {
      return "Frame(" + ChannelId.toString(channel) + " #" + seq + ", " + messages.size() + ")";
    }
  }

  /** Downstream to upstream: the receiver consumed {@code frames} more frames. */
  record Credit(long channel, int frames) implements ExchangeMessage {
    public Credit {
      Checks.checkArgument(
          frames > 0, "channel %s: credit of %s frames", ChannelId.toString(channel), frames);
    }
  }
}
