package dev.tideway.compute.exchange;

import dev.tideway.backfill.upstream.PollableExecutor;
import dev.tideway.barrier.align.BarrierAligner;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.Doorbell;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The leaf of an actor whose fragment reads from another fragment: merges the channels from every
 * upstream actor and aligns barriers with the barrier module's {@link BarrierAligner}. Inputs are
 * polled round-robin; an input that delivered the pending barrier is not polled until the others
 * did, so its channel fills and its producer blocks (alignment back-pressures the fast side). When
 * a full round finds nothing, a merge with its own {@link Doorbell} waits on it; a merge given the
 * actor's shared doorbell ({@link dev.tideway.compute.actor.ExecutorBuildContext#inputBell})
 * returns null instead, and the executor reading several merges waits on that doorbell.
 *
 * <p>Confined to the actor thread.
 */
public final class MergeExecutor implements PollableExecutor {
  private final ExecutorInfo info;
  private final Schema schema;
  private final List<InputChannel> inputs;
  private final BarrierAligner aligner;
  private final Doorbell doorbell;

  /**
   * Whether a round that finds nothing returns null (the doorbell is shared) instead of waiting.
   */
  private final boolean polls;

  private int nextInput;

  /** A merge that blocks until one of its inputs has a message. */
  public MergeExecutor(ExecutorInfo info, Schema schema, List<InputChannel> inputs) {
    this(info, schema, inputs, null);
  }

  /**
   * A merge ringing {@code sharedBell} (and returning null when no input has a message), or, when
   * it is null, a blocking merge with a doorbell of its own.
   */
  public MergeExecutor(
      ExecutorInfo info, Schema schema, List<InputChannel> inputs, Doorbell sharedBell) {
    Checks.checkArgument(!inputs.isEmpty(), "%s: merge without input channels", info);
    Set<Long> ids = new HashSet<>();
    for (InputChannel in : inputs) {
      // one channel read as two inputs would deliver both inputs' barriers to one of them
      Checks.checkArgument(
          ids.add(in.channel()),
          "%s: channel %s is an input twice: an actor may read one upstream actor once per merge"
              + " (two scans of one table belong in two fragments)",
          info,
          ChannelId.toString(in.channel()));
    }
    this.info = info;
    this.schema = schema;
    this.inputs = List.copyOf(inputs);
    this.polls = sharedBell != null;
    this.doorbell = polls ? sharedBell : new Doorbell();
    this.aligner = new BarrierAligner(info.toString(), inputs.size());
    for (InputChannel in : this.inputs) {
      in.attach(doorbell);
    }
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /** True while some inputs delivered a barrier the others have not. */
  public boolean isAligning() {
    return aligner.isAligning();
  }

  @Override
  public Message next() {
    while (true) {
      Message out = pollRound();
      if (out != null) {
        return out;
      }
      if (!foundInRound) {
        if (polls) {
          return null;
        }
        doorbell.await(Doorbell.WAIT_MS);
      }
    }
  }

  /**
   * The next message if the inputs hold one now, else null; never waits (a backfill reads its
   * snapshot while its upstream is idle, on the same thread).
   */
  @Override
  public Message poll() {
    while (true) {
      Message out = pollRound();
      if (out != null || !foundInRound) {
        return out;
      }
    }
  }

  /** Whether the last {@link #pollRound} took a message from any input. */
  private boolean foundInRound;

  /** One round over the inputs: the first message to pass the aligner, or null. */
  private Message pollRound() {
    foundInRound = false;
    for (int polled = 0; polled < inputs.size(); polled++) {
      int i = nextInput;
      nextInput = (nextInput + 1) % inputs.size();
      if (aligner.isBlocked(i)) {
        continue;
      }
      Message m = inputs.get(i).poll();
      if (m == null) {
        continue;
      }
      foundInRound = true;
      Message out = aligner.onMessage(i, m);
      if (out != null) {
        return out;
      }
    }
    return null;
  }
}
