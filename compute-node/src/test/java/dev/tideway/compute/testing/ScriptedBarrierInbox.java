package dev.tideway.compute.testing;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.compute.executor.source.BarrierInbox;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * A deterministic {@link dev.tideway.compute.executor.source.BarrierInbox}: each step is "answer
 * {@code polls} polls with no barrier, then deliver this barrier". A source reads one chunk per
 * empty poll, so a script fixes exactly how many chunks each epoch gets. {@link #take()} delivers
 * the next barrier at once; after the script, every call returns null.
 */
public final class ScriptedBarrierInbox implements BarrierInbox {
  private record Step(int polls, Barrier barrier) {}

  private final Deque<Step> steps = new ArrayDeque<>();
  private int pollsLeft = -1;
  private long lastEpoch;

  /** After {@code polls} empty polls, a checkpoint barrier opening {@code epoch}. */
  public ScriptedBarrierInbox then(int polls, long epoch) {
    return then(polls, epoch, null);
  }

  /** After {@code polls} empty polls, a barrier opening {@code epoch} carrying {@code mutation}. */
  public ScriptedBarrierInbox then(int polls, long epoch, Mutation mutation) {
    BarrierKind kind = lastEpoch == 0 ? BarrierKind.INITIAL : BarrierKind.CHECKPOINT;
    return then(polls, new Barrier(new EpochPair(epoch, lastEpoch), kind, mutation));
  }

  /** The initial barrier of a recovery: opens {@code epoch} after committed epoch {@code prev}. */
  public ScriptedBarrierInbox recoverFrom(long prev, long epoch) {
    return then(0, new Barrier(new EpochPair(epoch, prev), BarrierKind.INITIAL, null));
  }

  /** After {@code polls} empty polls, a barrier stopping {@code actorId}. */
  public ScriptedBarrierInbox thenStop(int polls, long epoch, int actorId) {
    return then(polls, epoch, new Mutation.Stop(Set.of(actorId)));
  }

  public ScriptedBarrierInbox then(int polls, Barrier barrier) {
    lastEpoch = barrier.curr();
    steps.add(new Step(polls, barrier));
    return this;
  }

  @Override
  public Barrier poll() {
    Step s = steps.peek();
    if (s == null) {
      return null;
    }
    if (pollsLeft < 0) {
      pollsLeft = s.polls;
    }
    if (pollsLeft > 0) {
      pollsLeft--;
      return null;
    }
    pollsLeft = -1;
    return steps.poll().barrier;
  }

  @Override
  public Barrier poll(long timeoutNanos) {
    return poll();
  }

  @Override
  public Barrier take() {
    pollsLeft = -1;
    Step s = steps.poll();
    return s == null ? null : s.barrier;
  }
}
