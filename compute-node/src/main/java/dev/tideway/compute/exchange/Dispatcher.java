package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import java.util.List;

/**
 * Routes an upstream actor's output to its downstream actors' channels. Barriers and watermarks go
 * to every output (each downstream merge needs them for alignment); chunks are routed by the
 * dispatcher kind. Implementations: {@link HashDispatcher}, {@link BroadcastDispatcher}, {@link
 * SimpleDispatcher} (also no-shuffle).
 *
 * <p>Confined to the upstream actor thread.
 */
public sealed interface Dispatcher permits HashDispatcher, BroadcastDispatcher, SimpleDispatcher {
  /** Sends {@code message} to the outputs it belongs to; blocks while a channel is full. */
  void dispatch(Message message);

  /** The outputs, in downstream-actor order. */
  List<OutputChannel> outputs();

  /** Sends a control message (barrier, watermark) to every output. */
  static void toAll(List<OutputChannel> outputs, Message message) {
    for (OutputChannel o : outputs) {
      o.send(message);
    }
  }
}
