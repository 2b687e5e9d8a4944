package dev.tideway.barrier.align;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;

/**
 * Aligns barriers across the inputs of one multi-input executor. Feed it every message with the
 * input it came from; it returns what to emit: data messages pass through at once, a barrier is
 * returned only when the last input delivered it, and null means "nothing to emit". The caller must
 * not poll an input while {@link #isBlocked} says so (with bounded channels that back-pressures the
 * upstream of that input).
 *
 * <p>Confined to the actor thread that owns the executor. States: {@link WaitingForFirstBarrier},
 * {@link CollectingBarriers}.
 */
public final class BarrierAligner implements AlignerContext {
  private final String owner;
  private final int inputCount;
  private AlignmentState state = WaitingForFirstBarrier.INSTANCE;
  private Barrier emitted;

  /**
   * @param owner names the executor in failure messages ("actor 7 HashJoin")
   */
  public BarrierAligner(String owner, int inputCount) {
    Checks.checkArgument(
        inputCount >= 1, "%s: an aligner needs >= 1 input, got %s", owner, inputCount);
    this.owner = owner;
    this.inputCount = inputCount;
  }

  /** Handles one message from {@code input}; returns the message to emit downstream, or null. */
  public Message onMessage(int input, Message message) {
    Checks.checkIndex(input, inputCount, owner + " input");
    Checks.checkState(
        !state.isBlocked(input),
        "%s: input %s is blocked in %s but delivered %s",
        owner,
        input,
        state,
        message);
    if (!(message instanceof Barrier barrier)) {
      return message;
    }
    emitted = null;
    state = state.onBarrier(this, input, barrier);
    Barrier out = emitted;
    emitted = null;
    return out;
  }

  /** True while {@code input} delivered the pending barrier and must not be polled. */
  public boolean isBlocked(int input) {
    return state.isBlocked(input);
  }

  /** True when some input delivered a barrier the others have not yet. */
  public boolean isAligning() {
    return state instanceof CollectingBarriers;
  }

  @Override
  public String owner() {
    return owner;
  }

  @Override
  public int inputCount() {
    return inputCount;
  }

  @Override
  public void emit(Barrier barrier) {
    emitted = barrier;
  }
}
