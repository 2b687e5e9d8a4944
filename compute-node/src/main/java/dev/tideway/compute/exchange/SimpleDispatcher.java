package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import java.util.List;

/**
 * Everything to one output: a singleton downstream fragment ({@code SIMPLE}), or actor {@code i} to
 * actor {@code i} ({@code NO_SHUFFLE}, where the node gives each upstream actor its one partner).
 */
public final class SimpleDispatcher implements Dispatcher {
  private final OutputChannel output;

  public SimpleDispatcher(OutputChannel output) {
    this.output = output;
  }

  @Override
  public void dispatch(Message message) {
    if (message instanceof Message.Chunk c && c.chunk().cardinality() == 0) {
      return;
    }
    output.send(message);
  }

  @Override
  public List<OutputChannel> outputs() {
    return List.of(output);
  }
}
