package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import java.util.List;

/** Every message to every output (a broadcast join side, a dimension table). */
public final class BroadcastDispatcher implements Dispatcher {
  private final List<OutputChannel> outputs;

  public BroadcastDispatcher(List<OutputChannel> outputs) {
    Checks.checkArgument(!outputs.isEmpty(), "broadcast dispatcher without outputs");
    this.outputs = List.copyOf(outputs);
  }

  @Override
  public void dispatch(Message message) {
    if (message instanceof Message.Chunk c && c.chunk().cardinality() == 0) {
      return;
    }
    Dispatcher.toAll(outputs, message);
  }

  @Override
  public List<OutputChannel> outputs() {
    return outputs;
  }
}
