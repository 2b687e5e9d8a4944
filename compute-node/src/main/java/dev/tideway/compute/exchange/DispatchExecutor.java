package dev.tideway.compute.exchange;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongConsumer;

/**
 * The root of every actor: pulls its input, hands each message to every {@link Dispatcher} and then
 * returns it, so by the time the actor reports a barrier the barrier is already in every output
 * channel. An actor may have no dispatcher (the last fragment of a job) and gain some later, when a
 * new job starts reading its fragment (a materialized view on a table or view).
 *
 * <p>Outputs change only at barriers. The node registers dispatchers for new downstream actors with
 * {@link #addOnBarrier} when it builds them; the {@code Add} barrier that starts those actors
 * attaches them <em>before</em> it is dispatched, so the new actors' first message is that barrier
 * and they receive every later message. A {@code Stop} barrier naming all the downstream actors of
 * a dispatcher is dispatched to them, and then the dispatcher is removed (its channels are handed
 * to {@code onChannelClosed}). Stopping only some of a dispatcher's actors is a rescale: it fails.
 *
 * <p>Confined to the actor thread, except {@link #addOnBarrier} and {@link #cancelPending} (any
 * thread; the hand-off is a concurrent queue, read by the actor thread at barriers).
 */
public final class DispatchExecutor implements Executor {
  private final Executor input;
  private final ExecutorInfo info;
  private final List<Dispatcher> dispatchers = new ArrayList<>();
  private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
  private final LongConsumer onChannelClosed;

  /** A dispatcher waiting for the {@code Add} barrier of its downstream actors. */
  private record Pending(Dispatcher dispatcher, Set<Integer> downstreamActors) {}

  /** One dispatcher, no later changes of outputs reported. */
  public DispatchExecutor(ExecutorInfo info, Executor input, Dispatcher dispatcher) {
    this(info, input, List.of(dispatcher), c -> {});
  }

  /**
   * @param dispatchers the outputs at start (may be empty)
   * @param onChannelClosed told the id of every channel removed by a {@code Stop} (actor thread)
   */
  public DispatchExecutor(
      ExecutorInfo info,
      Executor input,
      List<Dispatcher> dispatchers,
      LongConsumer onChannelClosed) {
    this.info = info;
    this.input = input;
    this.dispatchers.addAll(dispatchers);
    this.onChannelClosed = onChannelClosed;
  }

  @Override
  public Schema schema() {
    return input.schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /**
   * Attaches {@code dispatcher} at the first {@code Add} barrier naming any of its downstream
   * actors. Call it before that barrier is injected (the node does it when it builds them).
   */
  public void addOnBarrier(Dispatcher dispatcher) {
    Set<Integer> downstream = downstreamOf(dispatcher);
    Checks.checkArgument(!downstream.isEmpty(), "%s: a dispatcher without outputs", info);
    pending.add(new Pending(dispatcher, downstream));
  }

  /** Forgets pending dispatchers towards any of {@code downstreamActors} (their build failed). */
  public void cancelPending(Set<Integer> downstreamActors) {
    pending.removeIf(p -> p.downstreamActors().stream().anyMatch(downstreamActors::contains));
  }

  /** The number of attached dispatchers (tests, metrics; actor thread, or after it stopped). */
  public int dispatcherCount() {
    return dispatchers.size();
  }

  @Override
  public Message next() {
    Message m = input.next();
    if (m == null) {
      return null;
    }
    if (m instanceof Barrier b) {
      onBarrier(b);
      return m;
    }
    if (m instanceof Message.Chunk c && c.chunk().cardinality() == 0) {
      return m; // nothing visible (an executor's yield, or every row filtered): send nothing
    }
    for (int i = 0; i < dispatchers.size(); i++) {
      dispatchers.get(i).dispatch(m);
    }
    return m;
  }

  private void onBarrier(Barrier b) {
    if (b.mutation() instanceof Mutation.Update u
        && u.dispatcherOutputs().containsKey(info.actorId())) {
      // Rescale rewires dispatchers at this barrier; routing on with the old outputs would send
      // rows to actors that no longer own their vnodes, so fail loudly until it is supported.
      throw new UnsupportedOperationException(
          info + ": dispatcher update (rescale) at " + b + " is not supported yet");
    }
    if (b.mutation() instanceof Mutation.Add add) {
      attach(add.actors());
    }
    for (int i = 0; i < dispatchers.size(); i++) {
      dispatchers.get(i).dispatch(b);
    }
    if (b.mutation() instanceof Mutation.Stop stop) {
      detach(stop.actors(), b);
    }
  }

  private void attach(Set<Integer> added) {
    for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (p.downstreamActors().stream().anyMatch(added::contains)) {
        dispatchers.add(p.dispatcher());
        it.remove();
      }
    }
  }

  private void detach(Set<Integer> stopped, Barrier b) {
    for (Iterator<Dispatcher> it = dispatchers.iterator(); it.hasNext(); ) {
      Dispatcher d = it.next();
      Set<Integer> downstream = downstreamOf(d);
      boolean any = downstream.stream().anyMatch(stopped::contains);
      if (!any) {
        continue;
      }
      if (!stopped.containsAll(downstream)) {
        throw new UnsupportedOperationException(
            info
                + ": "
                + b
                + " stops only some of the downstream actors "
                + downstream
                + " of one dispatcher (scale-in is not supported yet)");
      }
      it.remove();
      for (OutputChannel o : d.outputs()) {
        onChannelClosed.accept(o.channel());
      }
    }
  }

  private static Set<Integer> downstreamOf(Dispatcher d) {
    Set<Integer> out = new HashSet<>();
    for (OutputChannel o : d.outputs()) {
      out.add(ChannelId.downstream(o.channel()));
    }
    return out;
  }
}
