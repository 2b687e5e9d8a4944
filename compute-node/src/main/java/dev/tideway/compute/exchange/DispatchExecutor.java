package dev.tideway.compute.exchange;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.types.Schema;

/**
 * The root of an actor whose fragment feeds another fragment: pulls its input, hands each message
 * to the {@link Dispatcher} and then returns it, so by the time the actor reports a barrier the
 * barrier is already in every output channel.
 *
 * <p>Confined to the actor thread.
 */
public final class DispatchExecutor implements Executor {
  private final Executor input;
  private final Dispatcher dispatcher;
  private final ExecutorInfo info;

  public DispatchExecutor(ExecutorInfo info, Executor input, Dispatcher dispatcher) {
    this.info = info;
    this.input = input;
    this.dispatcher = dispatcher;
  }

  @Override
  public Schema schema() {
    return input.schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    Message m = input.next();
    if (m == null) {
      return null;
    }
    if (m instanceof Barrier b
        && b.mutation() instanceof Mutation.Update u
        && u.dispatcherOutputs().containsKey(info.actorId())) {
      // Rescale rewires dispatchers at this barrier; routing on with the old outputs would send
      // rows to actors that no longer own their vnodes, so fail loudly until it is supported.
      throw new UnsupportedOperationException(
          info + ": dispatcher update (rescale) at " + b + " is not supported yet");
    }
    dispatcher.dispatch(m);
    return m;
  }
}
